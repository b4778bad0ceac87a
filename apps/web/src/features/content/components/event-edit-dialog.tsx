import { MenuItem, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventDetail, EventStatus } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { fieldError as apiFieldError } from '../../../lib/api-client.ts';
import { patchEvent } from '../api/events.ts';

/** The organiser's edit form of an event's details and branding. */
export function EventEditDialog({ event, onClose }: { event: EventDetail; onClose: () => void }) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const [form, setForm] = useState({
    name: event.name,
    place: event.place,
    startDate: event.startDate,
    endDate: event.endDate,
    status: event.status,
    color: event.branding.color ?? '',
    tagline: event.branding.tagline ?? '',
  });
  const save = useMutation({
    mutationFn: () =>
      patchEvent(event.id, {
        name: form.name,
        place: form.place,
        startDate: form.startDate,
        endDate: form.endDate,
        status: form.status,
        branding: {
          ...event.branding,
          color: form.color || undefined,
          tagline: form.tagline || undefined,
        },
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['content'] });
      onClose();
    },
  });
  const fieldError = (name: string) => apiFieldError(save.error, name);
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  return (
    <FormDialog
      title={t('event.edit')}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      busy={save.isPending}
      error={save.isError && t('form.failed')}
      submitLabel={t('form.save')}
      cancelLabel={t('form.cancel')}
    >
      <TextField
        label={t('event.name')}
        value={form.name}
        onChange={set('name')}
        required
        error={!!fieldError('name')}
        helperText={fieldError('name')}
      />
      <TextField label={t('event.place')} value={form.place} onChange={set('place')} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="date"
          label={t('event.startDate')}
          value={form.startDate}
          onChange={set('startDate')}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
        />
        <TextField
          type="date"
          label={t('event.endDate')}
          value={form.endDate}
          onChange={set('endDate')}
          error={!!fieldError('endDate')}
          helperText={fieldError('endDate')}
          slotProps={{ inputLabel: { shrink: true } }}
          fullWidth
        />
      </Stack>
      <TextField
        select
        label={t('event.status')}
        value={form.status}
        onChange={(e) => setForm((f) => ({ ...f, status: e.target.value as EventStatus }))}
      >
        {(['upcoming', 'live', 'finished'] as const).map((s) => (
          <MenuItem key={s} value={s}>
            {t(`status.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={t('event.color')}
        value={form.color}
        onChange={set('color')}
        placeholder="#39aade"
        error={!!fieldError('branding.color')}
        helperText={fieldError('branding.color')}
      />
      <TextField label={t('event.tagline')} value={form.tagline} onChange={set('tagline')} />
    </FormDialog>
  );
}
