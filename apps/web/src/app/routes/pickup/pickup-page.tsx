import { Alert, Box, Tab, Tabs, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { getPickupCard, type PickupRunner } from '../../../features/pickup/api/pickup.ts';
import { ConflictsPanel } from '../../../features/pickup/components/conflicts-panel.tsx';
import { LateEntryForm } from '../../../features/pickup/components/late-entry-form.tsx';
import { RunnerCard } from '../../../features/pickup/components/runner-card.tsx';
import { RunnerSearch } from '../../../features/pickup/components/runner-search.tsx';
import { ScanPanel } from '../../../features/pickup/components/scan-panel.tsx';
import { usePickup } from '../../../features/pickup/hooks/use-pickup.ts';
import { installOfflineShell } from '../../../features/raceday/offline-shell.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';

function useOnline() {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/**
 * `/pickup/:eventId` (requireAuth; the event's pickup staff, owners and staff): the volunteer's
 * phone page (issue 39). Scan an entry's QR or search by name or bib, the runner's card, late
 * entries; works offline after one load (the race-day service worker keeps the app, the phone
 * keeps the list and the operations).
 */
export default function PickupPage() {
  const { t } = useTranslation('pickup');
  const { eventId = '' } = useParams();
  const { profile } = useAuth();
  const online = useOnline();
  const pickup = usePickup(eventId, profile?.email ?? t('card.thisPhone'));
  const [tab, setTab] = useState<'scan' | 'late'>('scan');
  const [openId, setOpenId] = useState<string | null>(null);
  const [fetched, setFetched] = useState<PickupRunner | null>(null);
  const [notFound, setNotFound] = useState(false);
  useEffect(installOfflineShell, []);

  const open = useMemo(
    () => pickup.runners.find((r) => r.id === openId) ?? (fetched?.id === openId ? fetched : null),
    [pickup.runners, openId, fetched],
  );
  const answersOf = (id: string) =>
    pickup.ops
      .filter((o) => 'participantId' in o.op && o.op.participantId === id && o.answer)
      .map((o) => o.answer!)
      .reverse();
  const lateAnswer = pickup.ops.filter((o) => o.op.kind === 'late').at(-1)?.answer;

  const openCode = async (code: string) => {
    setNotFound(false);
    const local = pickup.runners.find((r) => r.code === code);
    if (local) return setOpenId(local.id);
    try {
      const runner = await getPickupCard(eventId, code);
      setFetched(runner);
      setOpenId(runner.id);
    } catch {
      setNotFound(true);
    }
  };

  if (!pickup.list && !pickup.loadError) return <PageLoading />;
  if (!pickup.list) return <PageError error={pickup.loadError} />;
  const { list } = pickup;
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 560, mx: 'auto', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Typography component="h1" variant="h5">
        {t('title')} · {list.event.name}
      </Typography>
      {(!online || pickup.fromPhone) && (
        <Alert severity="warning" role="status">
          {t('offline')}
        </Alert>
      )}
      <Typography role="status" data-testid="pickup-pending">
        {pickup.pending ? t('waiting', { count: pickup.pending }) : t('allSent')}
      </Typography>
      {pickup.sendError && <Alert severity="error">{pickup.sendError}</Alert>}
      <ConflictsPanel
        eventId={eventId}
        online={online}
        timeZone={list.event.timeZone}
        names={Object.fromEntries(list.addOns.map((a) => [a.key, a.name]))}
        onResolved={() => void pickup.load()}
      />
      {open ? (
        <RunnerCard
          runner={open}
          answers={answersOf(open.id)}
          currency={list.currency}
          timeZone={list.event.timeZone}
          add={pickup.add}
          onClose={() => setOpenId(null)}
        />
      ) : (
        <>
          <Tabs value={tab} onChange={(_, v) => setTab(v)} aria-label={t('title')}>
            <Tab value="scan" label={t('scan.tab')} />
            <Tab value="late" label={t('late.open')} />
          </Tabs>
          {tab === 'scan' ? (
            <Box sx={{ display: 'grid', gap: 2 }}>
              <ScanPanel label={t('scan.start')} onCode={(code) => void openCode(code)} />
              {notFound && (
                <Alert severity="error" role="alert">
                  {t('scan.notFound')}
                </Alert>
              )}
              <RunnerSearch runners={pickup.runners} onOpen={setOpenId} />
            </Box>
          ) : (
            <LateEntryForm list={list} add={pickup.add} answer={lateAnswer} />
          )}
        </>
      )}
    </Box>
  );
}
