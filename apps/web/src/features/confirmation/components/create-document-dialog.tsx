import { MenuItem, TextField } from '@mui/material';
import { type SenderKind, senderKinds } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { confirmationApi, useConfirmationEvents } from '../api/documents.ts';

/** Creates a document (event, sender, contact) and opens its import view. */
export function CreateDocumentDialog({
  open,
  onClose,
  eventId,
}: {
  open: boolean;
  onClose: () => void;
  eventId?: string;
}) {
  const { t } = useTranslation('confirmation');
  const navigate = useNavigate();
  const events = useConfirmationEvents();
  const [form, setForm] = useState({
    eventId: eventId ?? '',
    defaultRaceId: '',
    title: '',
    senderName: '',
    senderKind: 'school' as SenderKind,
    contactName: '',
    contactEmail: '',
  });
  const [error, setError] = useState<ApiError | null>(null);
  const event = events.data?.find((e) => e.id === form.eventId);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value, ...(key === 'eventId' ? { defaultRaceId: '' } : {}) }));
  const field = (name: string) => error?.fieldErrors[name]?.[0];

  async function handleSubmit() {
    setError(null);
    try {
      const doc = await confirmationApi.create({ ...form, defaultRaceId: form.defaultRaceId || null });
      navigate(paths.confirmationDocument(doc.id, 'import'));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'NETWORK', String(err)));
    }
  }

  return (
    <FormDialog
      open={open}
      title={t('create.heading')}
      onClose={onClose}
      onSubmit={handleSubmit}
      submitDisabled={!form.eventId}
      error={error && t('errors.generic', { message: error.message })}
      submitLabel={t('create.submit')}
      cancelLabel={t('create.cancel')}
    >
      <TextField select required label={t('create.event')} value={form.eventId} onChange={set('eventId')}>
        {(events.data ?? []).map((ev) => (
          <MenuItem key={ev.id} value={ev.id}>
            {ev.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('create.race')}
        value={form.defaultRaceId}
        onChange={set('defaultRaceId')}
        disabled={!event}
      >
        <MenuItem value="">{t('create.noRace')}</MenuItem>
        {(event?.races ?? []).map((r) => (
          <MenuItem key={r.id} value={r.id}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        required
        label={t('create.title')}
        value={form.title}
        onChange={set('title')}
        error={!!field('title')}
        helperText={field('title')}
      />
      <TextField
        required
        label={t('create.senderName')}
        value={form.senderName}
        onChange={set('senderName')}
        error={!!field('senderName')}
        helperText={field('senderName')}
      />
      <TextField select label={t('create.senderKind')} value={form.senderKind} onChange={set('senderKind')}>
        {senderKinds.map((k) => (
          <MenuItem key={k} value={k}>
            {t(`senderKind.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField label={t('create.contactName')} value={form.contactName} onChange={set('contactName')} />
      <TextField
        required
        type="email"
        label={t('create.contactEmail')}
        value={form.contactEmail}
        onChange={set('contactEmail')}
        error={!!field('contactEmail')}
        helperText={field('contactEmail')}
      />
    </FormDialog>
  );
}
