import { Box, Button, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { StaffEntries, StaffEntry } from '@tempora/contracts';
import { entryStates } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { DateInput } from '../../../components/date-input.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';
import {
  downloadEntries,
  downloadInvoice,
  useManualEntry,
  useReleasePlaces,
  useStaffEntries,
  useStaffEntry,
} from '../api/entries.ts';
import { problemText } from './errors.ts';

/**
 * The organiser's entries (issue 38): places and revenue per race (with places released to the
 * waitlist), confirmed entries per day as bars, the list with filters and the answers as columns,
 * an entry's history and its order's invoice (PDF), manual entries and the CSV/XLSX export.
 */
export function StaffList({ eventId, currency }: { eventId: string; currency: string }) {
  const { t, i18n } = useTranslation('entries');
  const [filter, setFilter] = useState<{ race?: string; state?: string; q?: string }>({});
  const list = useStaffEntries(eventId, filter);
  const [open, setOpen] = useState<string | null>(null);
  const [manual, setManual] = useState(false);
  const release = useReleasePlaces(eventId);
  const money = (c: number) => formatMoney(c, currency, i18n.language);
  const data: StaffEntries | undefined = list.data;
  const columns: DataTableColumn<StaffEntry>[] = [
    {
      key: 'name',
      header: t('staff.name'),
      cell: (e) => (
        <Button size="small" onClick={() => setOpen(e.code)}>{`${e.firstName} ${e.lastName}`}</Button>
      ),
    },
    { key: 'race', header: t('form.race'), cell: (e) => e.raceName },
    { key: 'state', header: t('staff.filterState'), cell: (e) => t(`states.${e.state}`) },
    { key: 'amount', header: t('staff.amount'), cell: (e) => money(e.totalCents), align: 'right' },
    { key: 'invoice', header: t('staff.invoice'), cell: (e) => <InvoiceLink entry={e} short /> },
    { key: 'code', header: t('form.discountCode'), cell: (e) => e.discountCode ?? '' },
    { key: 'addOns', header: t('form.addOns'), cell: (e) => e.addOns.map((a) => a.name).join(', ') },
    ...(data?.questions ?? []).map((q) => ({
      key: `q-${q.key}`,
      header: q.label,
      cell: (e: StaffEntry) => {
        const v = e.answers[q.key];
        return Array.isArray(v) ? v.join(', ') : v == null ? '' : String(v);
      },
    })),
    { key: 'entered', header: t('staff.entered'), cell: (e) => formatDateTime(e.createdAt, i18n.language) },
  ];
  const max = Math.max(1, ...(data?.perDay ?? []).map((d) => d.count));
  return (
    <Box>
      {data && (
        <>
          <Typography variant="h6" component="h2">
            {t('staff.races')}
          </Typography>
          <DataTable
            label={t('staff.races')}
            rows={data.races}
            getRowKey={(r) => r.raceId}
            columns={[
              { key: 'name', header: t('form.race'), cell: (r) => r.name },
              {
                key: 'capacity',
                header: t('staff.capacity'),
                cell: (r) => r.capacity ?? '∞',
                align: 'right',
              },
              { key: 'taken', header: t('staff.taken'), cell: (r) => r.taken, align: 'right' },
              { key: 'held', header: t('staff.held'), cell: (r) => r.held, align: 'right' },
              { key: 'waiting', header: t('staff.waiting'), cell: (r) => r.waiting, align: 'right' },
              {
                key: 'revenue',
                header: t('staff.revenue'),
                cell: (r) => money(r.revenueCents),
                align: 'right',
              },
              {
                key: 'release',
                header: '',
                cell: (r) => (
                  <Button
                    size="small"
                    disabled={release.isPending}
                    onClick={() => release.mutate({ raceId: r.raceId, places: 1 })}
                  >
                    {t('staff.release')} (+1)
                  </Button>
                ),
              },
            ]}
          />
          <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
            {t('staff.perDay')}
          </Typography>
          <Stack spacing={0.5} sx={{ mb: 2 }} role="img" aria-label={t('staff.perDay')}>
            {data.perDay.map((d) => (
              <Stack key={d.day} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="caption" sx={{ width: 90 }}>
                  {d.day}
                </Typography>
                <Box
                  sx={{
                    height: 12,
                    width: `${(d.count / max) * 70}%`,
                    bgcolor: 'primary.main',
                    borderRadius: 1,
                  }}
                />
                <Typography variant="caption">{d.count}</Typography>
              </Stack>
            ))}
          </Stack>
        </>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1 }}>
        <TextField
          select
          size="small"
          label={t('staff.filterRace')}
          value={filter.race ?? ''}
          onChange={(e) => setFilter({ ...filter, race: e.target.value || undefined })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{t('staff.all')}</MenuItem>
          {(data?.races ?? []).map((r) => (
            <MenuItem key={r.raceId} value={r.raceId}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('staff.filterState')}
          value={filter.state ?? ''}
          onChange={(e) => setFilter({ ...filter, state: e.target.value || undefined })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{t('staff.all')}</MenuItem>
          {entryStates.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`states.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('staff.search')}
          value={filter.q ?? ''}
          onChange={(e) => setFilter({ ...filter, q: e.target.value || undefined })}
        />
        <Button onClick={() => void downloadEntries(eventId, 'csv', i18n.language)}>
          {t('staff.export', { format: 'CSV' })}
        </Button>
        <Button onClick={() => void downloadEntries(eventId, 'xlsx', i18n.language)}>
          {t('staff.export', { format: 'XLSX' })}
        </Button>
        <Button variant="outlined" onClick={() => setManual(true)}>
          {t('staff.manual')}
        </Button>
      </Stack>
      <DataTable
        label={t('staff.list')}
        rows={data?.entries ?? []}
        getRowKey={(e) => e.code}
        columns={columns}
        getRowProps={() => ({ 'data-testid': 'staff-entry' })}
      />
      {open && <HistoryDialog eventId={eventId} code={open} onClose={() => setOpen(null)} />}
      {manual && (
        <ManualDialog eventId={eventId} races={data?.races ?? []} onClose={() => setManual(false)} />
      )}
    </Box>
  );
}

/**
 * The PDF of an entry's order's invoice (issue 38: numbered once paid), fetched with the staff's
 * token (payments/orders/{id}/invoice.pdf allows the organisation's staff). The link's name
 * always says which invoice it is ("Invoice 000012 (PDF)"), also where the table shows the
 * number alone under its column. Nothing when there is no invoice.
 */
export function InvoiceLink({ entry: e, short = false }: { entry: StaffEntry; short?: boolean }) {
  const { t } = useTranslation('entries');
  if (!e.invoice || !e.orderId) return null;
  const name = t('staff.invoiceLink', { number: e.invoice });
  const orderId = e.orderId;
  return (
    <Link
      component="button"
      type="button"
      sx={{ whiteSpace: 'nowrap', verticalAlign: 'baseline' }}
      aria-label={short ? name : undefined}
      onClick={() => void downloadInvoice(orderId)}
    >
      {short ? e.invoice : name}
    </Link>
  );
}

/** The organiser's page of one entry: who, the race, its order's invoice, its history. */
export function HistoryDialog({
  eventId,
  code,
  onClose,
}: {
  eventId: string;
  code: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('entries');
  const entry = useStaffEntry(eventId, code);
  return (
    <FormDialog
      title={`${t('staff.history')} — ${code}`}
      onClose={onClose}
      onSubmit={onClose}
      cancelLabel={t('actions.close')}
    >
      {entry.data && (
        <>
          <Typography>
            {entry.data.entry.firstName} {entry.data.entry.lastName} · {entry.data.entry.email} ·{' '}
            {entry.data.entry.raceName}
          </Typography>
          {/* The link names the invoice itself; without one, why (not paid yet, or nothing to pay). */}
          <Typography variant="body2" data-testid="staff-entry-invoice">
            {entry.data.entry.invoice ? (
              <InvoiceLink entry={entry.data.entry} />
            ) : (
              `${t('staff.invoiceLabel')} ${t(entry.data.entry.orderId ? 'staff.noInvoice' : 'staff.noOrder')}`
            )}
          </Typography>
          {entry.data.history.map((h) => (
            <Typography key={`${h.at}-${h.action}`} variant="body2">
              {formatDateTime(h.at, i18n.language)} · {h.action} · {h.actor}
            </Typography>
          ))}
        </>
      )}
    </FormDialog>
  );
}

export function ManualDialog({
  eventId,
  races,
  onClose,
}: {
  eventId: string;
  races: StaffEntries['races'];
  onClose: () => void;
}) {
  const { t } = useTranslation('entries');
  const manual = useManualEntry(eventId);
  const [birthDate, setBirthDate] = useState<string | null>(null);
  return (
    <FormDialog
      title={t('staff.manual')}
      onClose={onClose}
      submitLabel={t('staff.save')}
      cancelLabel={t('actions.close')}
      error={problemText(t, manual.error)}
      onSubmit={async (form) => {
        const f = new FormData(form);
        const v = (k: string) => String(f.get(k) ?? '').trim();
        await manual.mutateAsync({
          payment: v('payment') === 'on_site' ? 'on_site' : 'comped',
          runner: {
            raceId: v('raceId'),
            firstName: v('firstName'),
            lastName: v('lastName'),
            email: v('email'),
            ...(birthDate ? { birthDate } : {}),
            ...(v('gender') ? { gender: v('gender') as 'M' | 'F' | 'X' } : {}),
          },
        });
        onClose();
      }}
    >
      <TextField select name="raceId" label={t('form.race')} defaultValue={races[0]?.raceId ?? ''}>
        {races.map((r) => (
          <MenuItem key={r.raceId} value={r.raceId}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField name="firstName" label={t('form.firstName')} />
      <TextField name="lastName" label={t('form.lastName')} />
      <TextField name="email" label={t('form.email')} />
      <DateInput
        name="birthDate"
        label={t('form.birthDate')}
        value={birthDate}
        onChange={setBirthDate}
        data-testid="manual-birth-date"
      />
      <TextField select name="gender" label={t('form.gender')} defaultValue="">
        {(['F', 'M', 'X'] as const).map((g) => (
          <MenuItem key={g} value={g}>
            {t(`form.genders.${g}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField select name="payment" label={t('staff.payment')} defaultValue="comped">
        <MenuItem value="comped">{t('staff.comped')}</MenuItem>
        <MenuItem value="on_site">{t('staff.onSite')}</MenuItem>
      </TextField>
    </FormDialog>
  );
}
