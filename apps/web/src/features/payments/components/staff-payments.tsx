import { Alert, Box, MenuItem, Paper, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatMoney } from '../../../lib/money.ts';
import { useStaffEvents } from '../api/payments.ts';
import { AuditList } from './audit-list.tsx';
import { MatchingQueue } from './matching-queue.tsx';
import { RefundsPanel } from './refunds-panel.tsx';
import { SettingsForm } from './settings-form.tsx';
import { StaffOrders } from './staff-orders.tsx';
import { StaffTeams } from './staff-teams.tsx';
import { StatementImport } from './statement-import.tsx';

const TABS = ['orders', 'teams', 'import', 'queue', 'refunds', 'settings', 'audit'] as const;

/** Organiser staff: payments of the events they manage, per event. */
export function StaffPayments() {
  const { t, i18n } = useTranslation('payments');
  const events = useStaffEvents();
  // The event and the tab live in the URL (`?event=&tab=`): a reload or a shared link keeps them.
  const [search, setSearch] = useSearchParams();
  const eventId = search.get('event') ?? '';
  const tab = (TABS as readonly string[]).includes(search.get('tab') ?? '')
    ? (search.get('tab') as (typeof TABS)[number])
    : 'orders';
  const set = (key: string, value: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set(key, value);
        return next;
      },
      { replace: true },
    );
  if (!events.data?.length) return null;
  const current = events.data.find((e) => e.eventId === eventId) ?? events.data[0]!;
  const money = (c: number) => formatMoney(c, 'EUR', i18n.language);
  return (
    <section aria-labelledby="staff-payments">
      <Typography id="staff-payments" variant="h6" component="h2" sx={{ fontSize: 18, mt: 4, mb: 1 }}>
        {t('staff.title')}
      </Typography>
      <TextField
        select
        size="small"
        label={t('staff.event')}
        value={current.eventId}
        onChange={(e) => set('event', e.target.value)}
        sx={{ minWidth: 260, mb: 2 }}
      >
        {events.data.map((e) => (
          <MenuItem key={e.eventId} value={e.eventId}>
            {e.eventName}
          </MenuItem>
        ))}
      </TextField>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(5, 1fr)' },
          mb: 2,
        }}
      >
        {(
          [
            ['deposits', String(current.deposits)],
            ['due', money(current.dueCents)],
            ['paid', money(current.paidCents)],
            ['refunded', money(current.refundedCents)],
            ['queue', String(current.queue)],
          ] as const
        ).map(([k, v]) => (
          <Paper key={k} variant="outlined" sx={{ p: 1.5 }}>
            <Typography variant="body2" color="text.secondary">
              {t(`staff.totals.${k}`)}
            </Typography>
            <Typography sx={{ fontSize: 20, fontWeight: 600 }} data-testid={`total-${k}`}>
              {v}
            </Typography>
          </Paper>
        ))}
      </Box>
      <Tabs
        value={tab}
        onChange={(_e, v) => set('tab', v)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('staff.title')}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((x) => (
          <Tab key={x} value={x} label={t(`staff.tabs.${x}`)} />
        ))}
      </Tabs>
      {tab === 'orders' && <StaffOrders eventId={current.eventId} />}
      {tab === 'teams' && <StaffTeams eventId={current.eventId} />}
      {tab === 'import' && <StatementImport eventId={current.eventId} />}
      {tab === 'queue' && <MatchingQueue eventId={current.eventId} />}
      {tab === 'refunds' && <RefundsPanel eventId={current.eventId} />}
      {tab === 'settings' && <SettingsForm key={current.eventId} eventId={current.eventId} />}
      {tab === 'audit' && <AuditList eventId={current.eventId} />}
      {events.isError && <Alert severity="error">{t('errors.generic')}</Alert>}
    </section>
  );
}
