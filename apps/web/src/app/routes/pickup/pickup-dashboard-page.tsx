import { Alert, Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DataTable } from '../../../components/data-table.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import {
  downloadPickupPdf,
  type PickupDashboard,
  useMarkDns,
  usePickupDashboard,
} from '../../../features/pickup/api/pickup.ts';
import { ConflictsPanel } from '../../../features/pickup/components/conflicts-panel.tsx';
import { formatMoney } from '../../../lib/money.ts';

/** The runners not picked up listed here (the paper list has them all). */
const SHOWN = 50;

/** A column left out on a phone (the stock table fits 390 px: name, left, to hand out, spare). */
const PHONE_HIDDEN = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** A titled part of the dashboard. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ display: 'grid', gap: 1 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 'bold' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

type Row<K extends keyof PickupDashboard> = PickupDashboard[K] extends (infer R)[] ? R : never;

/**
 * `/console/events/{eventId}/pickup` (issue 39): picked up per race and per hour, add-ons left,
 * money taken on site, who has not picked up; DNS in one step after a race's start; the paper list.
 */
export default function PickupDashboardPage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('pickup');
  const dash = usePickupDashboard(eventId);
  const dns = useMarkDns(eventId);
  const [order, setOrder] = useState<'bib' | 'name'>('bib');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  if (dash.isPending) return <PageLoading />;
  if (dash.isError) return <PageError error={dash.error} />;
  const d = dash.data;
  const money = (cents: number) => formatMoney(cents, d.currency, i18n.language);
  const oneDay = new Set(d.perHour.map((h) => h.hour.slice(0, 10))).size <= 1;
  const hourRaces = d.races.filter((race) =>
    d.perHour.some((h) => h.races.some((x) => x.raceId === race.raceId)),
  );
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('dashboard.title')}
        </Typography>
        <Button component={Link} to={paths.pickup(eventId)} variant="outlined">
          {t('dashboard.open')}
        </Button>
      </Stack>
      <ConflictsPanel
        eventId={eventId}
        online
        timeZone={d.timeZone}
        names={Object.fromEntries(d.addOns.map((a) => [a.key, a.name]))}
      />
      {dns.data && (
        <Alert severity="success" role="status">
          {t('dashboard.dnsDone', { count: dns.data.marked })}
        </Alert>
      )}
      <Section title={t('dashboard.races')}>
        <DataTable<Row<'races'>>
          label={t('dashboard.races')}
          rows={d.races}
          getRowKey={(r) => r.raceId}
          columns={[
            { key: 'race', header: t('dashboard.race'), cell: (r) => r.name },
            { key: 'runners', header: t('dashboard.runners'), cell: (r) => r.runners, align: 'right' },
            { key: 'picked', header: t('dashboard.pickedUp'), cell: (r) => r.pickedUp, align: 'right' },
            {
              key: 'left',
              header: t('dashboard.notYet'),
              cell: (r) => r.runners - r.pickedUp,
              align: 'right',
            },
          ]}
        />
      </Section>
      {d.races.some((r) => r.started && r.runners > r.pickedUp) && (
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
          {d.races
            .filter((r) => r.started && r.runners > r.pickedUp)
            .map((r) => (
              <Button
                key={r.raceId}
                variant="outlined"
                disabled={dns.isPending}
                onClick={() => {
                  if (window.confirm(t('dashboard.dnsConfirm', { race: r.name }))) dns.mutate(r.raceId);
                }}
              >
                {t('dashboard.dns', { race: r.name })}
              </Button>
            ))}
        </Stack>
      )}
      <Section title={t('dashboard.perHour')}>
        {d.perHour.length ? (
          <DataTable<Row<'perHour'>>
            label={t('dashboard.perHour')}
            rows={d.perHour}
            getRowKey={(r) => r.hour}
            columns={[
              { key: 'hour', header: t('dashboard.hour'), cell: (r) => (oneDay ? r.hour.slice(11) : r.hour) },
              ...hourRaces.map((race) => ({
                key: race.raceId,
                header: race.name,
                cell: (r: Row<'perHour'>) => r.races.find((x) => x.raceId === race.raceId)?.count ?? 0,
                align: 'right' as const,
              })),
              ...(hourRaces.length > 1
                ? [
                    {
                      key: 'total',
                      header: t('dashboard.total'),
                      cell: (r: Row<'perHour'>) => r.count,
                      align: 'right' as const,
                    },
                  ]
                : []),
            ]}
          />
        ) : (
          <Typography variant="body2">{t('dashboard.noHandout')}</Typography>
        )}
      </Section>
      {d.addOns.length > 0 && (
        <Section title={t('dashboard.addOns')}>
          <DataTable<Row<'addOns'>>
            label={t('dashboard.addOns')}
            rows={d.addOns}
            getRowKey={(r) => r.key}
            columns={[
              { key: 'name', header: t('dashboard.addOn'), cell: (r) => r.name },
              {
                key: 'stock',
                header: t('dashboard.stock'),
                cell: (r) => r.stock ?? t('dashboard.unlimited'),
                align: 'right',
                sx: PHONE_HIDDEN,
              },
              {
                key: 'handed',
                header: t('dashboard.handedOut'),
                cell: (r) => r.handedOut,
                align: 'right',
                sx: PHONE_HIDDEN,
              },
              {
                key: 'onSite',
                header: t('dashboard.onSite'),
                cell: (r) => (r.onSite === null ? '—' : <strong>{r.onSite}</strong>),
                align: 'right',
              },
              { key: 'to', header: t('dashboard.toHandOut'), cell: (r) => r.toHandOut, align: 'right' },
              {
                key: 'spare',
                header: t('dashboard.spare'),
                cell: (r) => r.spare ?? '—',
                align: 'right',
                cellSx: (r) =>
                  r.spare !== null && r.spare < 0 ? { color: 'error.main', fontWeight: 'bold' } : {},
              },
            ]}
          />
          <Typography variant="body2" color="text.secondary">
            {t('dashboard.stockHelp')}
          </Typography>
        </Section>
      )}
      <Section title={t('dashboard.unpaidTitle')}>
        {d.collected.length ? (
          <DataTable<Row<'collected'>>
            label={t('dashboard.collected')}
            rows={d.collected}
            getRowKey={(r) => r.method}
            columns={[
              { key: 'method', header: t('dashboard.method'), cell: (r) => t(`card.${r.method}`) },
              { key: 'count', header: t('dashboard.payments'), cell: (r) => r.count, align: 'right' },
              { key: 'total', header: t('dashboard.total'), cell: (r) => money(r.cents), align: 'right' },
            ]}
          />
        ) : (
          <Typography variant="body2">{t('dashboard.noneCollected')}</Typography>
        )}
        <Typography variant="body2" data-testid="pickup-still-owed">
          {d.unpaid.runners
            ? t('dashboard.stillOwed', { count: d.unpaid.runners, amount: money(d.unpaid.cents) })
            : t('dashboard.nothingOwed')}
        </Typography>
      </Section>
      <Section title={t('dashboard.notPickedUp', { count: d.notPickedUpCount })}>
        {d.notPickedUp.length > 0 && (
          <DataTable<Row<'notPickedUp'>>
            label={t('dashboard.notPickedUp', { count: d.notPickedUpCount })}
            rows={d.notPickedUp.slice(0, SHOWN)}
            getRowKey={(r) => r.id}
            columns={[
              { key: 'bib', header: t('dashboard.bib'), cell: (r) => r.bib ?? '—' },
              { key: 'name', header: t('dashboard.name'), cell: (r) => r.name },
              { key: 'race', header: t('dashboard.race'), cell: (r) => r.raceName },
            ]}
          />
        )}
        {d.notPickedUpCount > SHOWN && (
          <Typography variant="body2">
            {t('dashboard.more', { count: d.notPickedUpCount - SHOWN })}
          </Typography>
        )}
      </Section>
      <Box
        component="form"
        aria-label={t('dashboard.pdf')}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
        onSubmit={(e) => {
          e.preventDefault();
          void downloadPickupPdf(eventId, { order, from, to });
        }}
      >
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 'bold', width: '100%' }}>
          {t('dashboard.pdf')}
        </Typography>
        <TextField
          select
          size="small"
          label={t('dashboard.order')}
          value={order}
          onChange={(e) => setOrder(e.target.value as 'bib' | 'name')}
        >
          <MenuItem value="bib">{t('dashboard.byBib')}</MenuItem>
          <MenuItem value="name">{t('dashboard.byName')}</MenuItem>
        </TextField>
        <TextField
          size="small"
          label={t('dashboard.from')}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField
          size="small"
          label={t('dashboard.to')}
          value={to}
          onChange={(e) => setTo(e.target.value)}
        />
        <Button type="submit" variant="outlined">
          {t('dashboard.download')}
        </Button>
      </Box>
    </Box>
  );
}
