import { Checkbox, FormControlLabel, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleEventDetail } from '@tempora/contracts';
import { countryTimeZones } from '@tempora/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '../../../components/country-field.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { TimeZoneField } from '../../../components/time-zone-field.tsx';
import { createEvent } from '../api/events.ts';
import { fieldError, useSaveErrorMessage } from './form-state.tsx';

/**
 * A new event's zone (issue 43: it was the browser's, UTC on many machines, for an organisation
 * in Belgium): the organisation's country's when it has one zone; none when it has several (the
 * form asks); the browser's when the country is unknown.
 */
function defaultZone(zones: string[]): string {
  if (zones.length === 1) return zones[0]!;
  if (zones.length > 1) return '';
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A new event of an organisation (created as a draft, invisible to spectators). */
export function EventCreateDialog({
  orgId,
  country,
  onClose,
  onCreated,
}: {
  orgId: string;
  /** The organisation's country (ISO 3166-1 alpha-2): its zone is the event's by default. */
  country?: string | undefined;
  onClose: () => void;
  onCreated: (event: ConsoleEventDetail) => void;
}) {
  const { t, i18n } = useTranslation('console');
  const client = useQueryClient();
  const countryZones = useMemo(() => countryTimeZones(country), [country]);
  const [form, setForm] = useState({
    name: '',
    startDate: '',
    endDate: '',
    place: '',
    timeZone: defaultZone(countryZones),
  });
  // Most events need one timing context: created with the event unless unticked (issue 29).
  const [withContext, setWithContext] = useState(true);
  const save = useMutation({
    mutationFn: () =>
      createEvent(orgId, { ...form, endDate: form.endDate || form.startDate, context: withContext }),
    onSuccess: (event) => {
      void client.invalidateQueries({ queryKey: ['console'] });
      onCreated(event);
    },
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const err = (name: string) => fieldError(save.error, name);
  const errorMessage = useSaveErrorMessage(save.error);
  const askZone = !form.timeZone && countryZones.length > 1;
  return (
    <FormDialog
      title={t('event.createTitle')}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      busy={save.isPending}
      error={errorMessage}
      submitLabel={t('event.create')}
      cancelLabel={t('form.cancel')}
    >
      <TextField
        label={t('event.name')}
        value={form.name}
        onChange={set('name')}
        required
        error={!!err('name')}
        helperText={err('name')}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="date"
          label={t('event.startDate')}
          value={form.startDate}
          onChange={set('startDate')}
          required
          error={!!err('startDate')}
          helperText={err('startDate')}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
        />
        <TextField
          type="date"
          label={t('event.endDate')}
          value={form.endDate}
          onChange={set('endDate')}
          error={!!err('endDate')}
          helperText={err('endDate') ?? t('event.endDateHelp')}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
        />
      </Stack>
      <TextField label={t('event.place')} value={form.place} onChange={set('place')} />
      <TimeZoneField
        value={form.timeZone}
        onChange={(timeZone) => setForm((f) => ({ ...f, timeZone }))}
        error={err('timeZone')}
        preferred={countryZones}
        {...(askZone
          ? { help: t('event.timeZoneAsk', { country: countryName(country, i18n.language) }) }
          : {})}
      />
      <FormControlLabel
        control={<Checkbox checked={withContext} onChange={(e) => setWithContext(e.target.checked)} />}
        label={t('event.withContext')}
      />
    </FormDialog>
  );
}
