import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { ConsoleParticipant, RaceSummary } from '@tempora/contracts';
import i18next from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuditList } from '../../../components/audit-list.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAddParticipant, useAssignBibs, useAudit } from '../api/participants.ts';

/** The message of a failed call, with its field errors. */
export function errorText(error: unknown): string {
  // Issue 43: an import into official results says so in the page's language, naming the race.
  if (
    error instanceof ApiError &&
    (error.code === 'RACE_OFFICIAL' || error.code === 'CORRECTION_NEEDS_ORGANISER')
  )
    return i18next.t(`console:errors.${error.code}`, {
      race: error.fieldErrors.race?.[0] ?? '',
      defaultValue: error.message,
    });
  if (error instanceof ApiError) {
    const fields = Object.entries(error.fieldErrors).map(([f, m]) => `${f}: ${m.join(', ')}`);
    return [error.message, ...fields].join(' — ');
  }
  return error instanceof Error ? error.message : String(error);
}

/** Adds one runner to a race. */
export function AddParticipantDialog({
  eventId,
  races,
  open,
  onClose,
}: {
  eventId: string;
  races: RaceSummary[];
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('participants');
  const add = useAddParticipant(eventId);
  const [form, setForm] = useState({
    raceId: races[0]?.id ?? '',
    bib: '',
    firstName: '',
    lastName: '',
    gender: 'F',
    birthDate: '',
    club: '',
    nationality: '',
    email: '',
  });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));
  const fieldError = (field: string) =>
    add.error instanceof ApiError ? add.error.fieldErrors[field]?.join(', ') : undefined;
  const submit = async () => {
    await add.mutateAsync({
      raceId: form.raceId || races[0]?.id || '',
      firstName: form.firstName,
      lastName: form.lastName,
      gender: form.gender as 'M' | 'F' | 'X',
      ...(form.bib ? { bib: form.bib } : {}),
      ...(form.birthDate ? { birthDate: form.birthDate } : {}),
      ...(form.club ? { club: form.club } : {}),
      ...(form.nationality ? { nationality: form.nationality.toUpperCase() } : {}),
      ...(form.email ? { email: form.email } : {}),
    });
    onClose();
  };
  const text = (field: keyof typeof form, extra: object = {}) => (
    <TextField
      label={t(`fields.${field}`)}
      value={form[field]}
      onChange={set(field)}
      error={!!fieldError(field)}
      helperText={fieldError(field)}
      size="small"
      fullWidth
      {...extra}
    />
  );
  return (
    <FormDialog
      open={open}
      title={t('add.title')}
      onClose={onClose}
      onSubmit={submit}
      busy={add.isPending}
      error={add.isError && errorText(add.error)}
      submitLabel={t('actions.add')}
      cancelLabel={t('actions.cancel')}
      validate
    >
      <TextField select label={t('fields.raceId')} value={form.raceId} onChange={set('raceId')} size="small">
        {races.map((r) => (
          <MenuItem key={r.id} value={r.id}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {text('firstName', { required: true })}
        {text('lastName', { required: true })}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          label={t('fields.gender')}
          value={form.gender}
          onChange={set('gender')}
          size="small"
          fullWidth
        >
          {(['F', 'M', 'X'] as const).map((g) => (
            <MenuItem key={g} value={g}>
              {t(`gender.${g}`)}
            </MenuItem>
          ))}
        </TextField>
        {text('birthDate', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {text('bib', { helperText: fieldError('bib') ?? t('add.bibHelp') })}
        {text('nationality', { placeholder: 'BEL' })}
      </Stack>
      {text('club')}
      {text('email', { type: 'email' })}
    </FormDialog>
  );
}

/** The history of one runner: who changed what, when, before and after. */
export function AuditDialog({
  eventId,
  participant,
  onClose,
}: {
  eventId: string;
  participant: ConsoleParticipant | null;
  onClose(): void;
}) {
  const { t } = useTranslation('participants');
  const audit = useAudit(eventId, participant?.id ?? null);
  const show = (v: unknown) =>
    v === null || v === '' || v === undefined ? '∅' : Array.isArray(v) ? v.join(', ') : String(v);
  return (
    <Dialog open={participant !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>
        {t('audit.title', { name: participant ? `${participant.firstName} ${participant.lastName}` : '' })}
      </DialogTitle>
      <DialogContent>
        {audit.isError && <Alert severity="error">{errorText(audit.error)}</Alert>}
        {audit.data && (
          <AuditList
            label={t('audit.list')}
            empty={t('audit.empty')}
            items={audit.data.map((entry) => ({
              id: entry.id,
              at: entry.at,
              actor: entry.actorEmail,
              action: t(`audit.action.${entry.action}`),
              details: entry.changes.map(
                (c) =>
                  `${t(`fields.${c.field}`, { defaultValue: c.field })}: ${show(c.before)} → ${show(c.after)}`,
              ),
            }))}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Gives the race's runners without a bib the free bibs of a range. */
export function BibDialog({
  eventId,
  races,
  open,
  onClose,
}: {
  eventId: string;
  races: RaceSummary[];
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('participants');
  const assign = useAssignBibs(eventId);
  const [raceId, setRaceId] = useState(races[0]?.id ?? '');
  const race = races.find((r) => r.id === raceId) ?? races[0];
  const [first, setFirst] = useState(String(race?.bibRange?.first ?? 1));
  const [last, setLast] = useState(String(race?.bibRange?.last ?? 9999));
  return (
    <FormDialog
      open={open}
      title={t('bibs.title')}
      onClose={onClose}
      onSubmit={() => assign.mutate({ raceId: race?.id ?? '', first: Number(first), last: Number(last) })}
      busy={assign.isPending}
      submitDisabled={!race}
      error={assign.isError && errorText(assign.error)}
      submitLabel={t('bibs.assign')}
      cancelLabel={t('actions.close')}
      maxWidth="xs"
      validate
    >
      <TextField
        select
        label={t('fields.raceId')}
        value={race?.id ?? ''}
        onChange={(e) => setRaceId(e.target.value)}
        size="small"
      >
        {races.map((r) => (
          <MenuItem key={r.id} value={r.id}>
            {t('bibs.raceOption', { name: r.name, count: r.withoutBib })}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction="row" spacing={2}>
        <TextField
          label={t('bibs.first')}
          type="number"
          value={first}
          onChange={(e) => setFirst(e.target.value)}
          size="small"
          required
        />
        <TextField
          label={t('bibs.last')}
          type="number"
          value={last}
          onChange={(e) => setLast(e.target.value)}
          size="small"
          required
        />
      </Stack>
      {assign.data && (
        <Alert severity={assign.data.left ? 'warning' : 'success'} role="status">
          {t('bibs.done', { count: assign.data.assigned, left: assign.data.left })}
        </Alert>
      )}
    </FormDialog>
  );
}
