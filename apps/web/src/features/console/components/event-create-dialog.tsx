import { Checkbox, FormControlLabel, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConsoleEventDetail } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { TimeZoneField } from '../../../components/time-zone-field.tsx';
import { createEvent } from '../api/events.ts';
import { fieldError, useSaveErrorMessage } from './form-state.tsx';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Brussels';

/** A new event of an organisation (created as a draft, invisible to spectators). */
export function EventCreateDialog({
  orgId,
  onClose,
  onCreated,
}: {
  orgId: string;
  onClose: () => void;
  onCreated: (event: ConsoleEventDetail) => void;
}) {
  const { t } = useTranslation('console');
  const client = useQueryClient();
  const [form, setForm] = useState({
    name: '',
    startDate: '',
    endDate: '',
    place: '',
    timeZone: browserZone(),
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
      />
      <FormControlLabel
        control={<Checkbox checked={withContext} onChange={(e) => setWithContext(e.target.checked)} />}
        label={t('event.withContext')}
      />
    </FormDialog>
  );
}
