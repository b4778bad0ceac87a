import { Alert, Box, MenuItem, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import {
  useDevices,
  useRacedayEvent,
  useRacedayLive,
  useRunners,
  useServerSkew,
} from '../../../features/raceday/api/raceday.ts';
import { AuditLog } from '../../../features/raceday/components/audit-log.tsx';
import { DevicesPanel } from '../../../features/raceday/components/devices-panel.tsx';
import { ManualEntry } from '../../../features/raceday/components/manual-entry.tsx';
import { RaceClock } from '../../../features/raceday/components/race-clock.tsx';
import { ReadsList } from '../../../features/raceday/components/reads-list.tsx';
import { StartControl } from '../../../features/raceday/components/start-control.tsx';
import { StatusForm } from '../../../features/raceday/components/status-form.tsx';
import { installOfflineShell } from '../../../features/raceday/offline-shell.ts';

const TABS = ['devices', 'desk', 'start', 'audit'] as const;
type TabName = (typeof TABS)[number];

/**
 * `/console/events/:eventId/raceday/:tab` (requireAuth), inside the console's event frame:
 * devices, passings desk, start control, audit log; times in the event's zone.
 */
export default function RacedayPage() {
  const { t } = useTranslation('raceday');
  const { eventId = '', tab: rawTab } = useParams();
  const tab: TabName = (TABS as readonly string[]).includes(rawTab ?? '') ? (rawTab as TabName) : 'desk';
  const [search, setSearch] = useSearchParams();
  const event = useRacedayEvent(eventId);
  const contexts = event.data?.contexts ?? [];
  const db = search.get('db') ?? contexts[0]?.db ?? null;
  const context = contexts.find((c) => c.db === db) ?? null;
  const skew = useServerSkew();
  useRacedayLive(db);
  useEffect(installOfflineShell, []);
  if (event.isPending) return <PageLoading />;
  if (!event.data) return <PageError error={event.error} />;
  const races = context?.races ?? [];
  const timeZone = event.data.event.timeZone ?? undefined;
  const points = [...new Map(races.flatMap((r) => r.points).map((p) => [p.key, p])).values()];
  const base = `/console/events/${encodeURIComponent(eventId)}/raceday`;
  const query = search.toString() ? `?${search}` : '';
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 2, flexWrap: 'wrap' }}>
        <Typography component="h2" variant="h5" sx={{ flexGrow: 1 }}>
          {t('title')}
        </Typography>
        <RaceClock skewMs={skew} timeZone={timeZone} />
      </Box>
      {event.isError && (
        <Alert severity="warning" role="status">
          {t('offline')}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        {contexts.length > 1 && (
          <TextField
            select
            size="small"
            label={t('context')}
            value={db ?? ''}
            onChange={(e) => setSearch({ db: e.target.value })}
            sx={{ minWidth: 200 }}
          >
            {contexts.map((c) => (
              <MenuItem key={c.db} value={c.db}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Tabs
          value={tab}
          aria-label={t('title')}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ maxWidth: '100%' }}
        >
          {TABS.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`tabs.${name}`)}
              component={Link}
              to={`${base}/${name}${query}`}
            />
          ))}
        </Tabs>
      </Box>
      {!db ? (
        <Alert severity="info">{t('noContext')}</Alert>
      ) : tab === 'devices' ? (
        <DevicesPanel db={db} races={races} timeZone={timeZone} />
      ) : tab === 'desk' ? (
        <DeskTab db={db} races={races} points={points} skew={skew} timeZone={timeZone} />
      ) : tab === 'start' ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
          {races.map((r) => (
            <StartControl key={r.id} db={db} race={r} skewMs={skew} timeZone={timeZone} />
          ))}
        </Box>
      ) : (
        <AuditLog db={db} timeZone={timeZone} />
      )}
    </Box>
  );
}

function DeskTab({
  db,
  races,
  points,
  skew,
  timeZone,
}: {
  db: string;
  races: Parameters<typeof StatusForm>[0]['races'];
  points: Parameters<typeof ManualEntry>[0]['points'];
  skew: number;
  timeZone: string | undefined;
}) {
  const runners = useRunners(db);
  const devices = useDevices(db);
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { lg: 'minmax(360px, 1fr) 2fr' },
        alignItems: 'start',
      }}
    >
      <Box sx={{ display: 'grid', gap: 2 }}>
        <ManualEntry
          db={db}
          races={races}
          points={points}
          runners={runners.data}
          skewMs={skew}
          timeZone={timeZone}
        />
        <StatusForm db={db} races={races} runners={runners.data} />
      </Box>
      <ReadsList db={db} points={points} devices={devices.data?.devices ?? []} timeZone={timeZone} />
    </Box>
  );
}
