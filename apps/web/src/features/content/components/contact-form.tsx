import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { sendContactMessage } from '../api/contacts.ts';

const empty = { name: '', email: '', subject: '', message: '', website: '' };

/**
 * The contact form: validated here for quick feedback and again on the server (field errors
 * shown beside the fields); `website` is a honeypot hidden from people and screen readers.
 */
export function ContactForm({ eventId }: { eventId: string }) {
  const { t } = useTranslation('content');
  const [form, setForm] = useState(empty);
  const [local, setLocal] = useState<Record<string, string>>({});
  const send = useMutation({
    mutationFn: () => sendContactMessage(eventId, form),
    onSuccess: () => setForm(empty),
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const error = (field: string) =>
    local[field] ??
    (send.error instanceof ApiError && send.error.fieldErrors[field]
      ? t(`contact.invalid.${field}`)
      : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!form.name.trim()) problems.name = t('contact.invalid.name');
    if (!/^\S+@\S+\.\S+$/.test(form.email.trim())) problems.email = t('contact.invalid.email');
    if (!form.subject.trim()) problems.subject = t('contact.invalid.subject');
    if (form.message.trim().length < 10) problems.message = t('contact.invalid.message');
    setLocal(problems);
    if (!Object.keys(problems).length) send.mutate();
  };
  const failure =
    send.error instanceof ApiError && send.error.status === 429
      ? t('contact.tooMany')
      : send.error instanceof ApiError && send.error.status === 400
        ? null
        : t('form.failed');
  return (
    <Box component="form" onSubmit={submit} noValidate aria-labelledby="contact-form-title">
      <Stack spacing={2}>
        {send.isSuccess && (
          <Alert severity="success" role="status">
            {t('contact.sent')}
          </Alert>
        )}
        {send.isError && failure && <Alert severity="error">{failure}</Alert>}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label={t('contact.name')}
            value={form.name}
            onChange={set('name')}
            required
            fullWidth
            error={!!error('name')}
            helperText={error('name')}
            autoComplete="name"
          />
          <TextField
            label={t('contact.email')}
            type="email"
            value={form.email}
            onChange={set('email')}
            required
            fullWidth
            error={!!error('email')}
            helperText={error('email')}
            autoComplete="email"
          />
        </Stack>
        <TextField
          label={t('contact.subject')}
          value={form.subject}
          onChange={set('subject')}
          required
          error={!!error('subject')}
          helperText={error('subject')}
        />
        <TextField
          label={t('contact.message')}
          value={form.message}
          onChange={set('message')}
          required
          multiline
          minRows={5}
          error={!!error('message')}
          helperText={error('message')}
        />
        {/* Honeypot: off-screen, not focusable, hidden from assistive technology. */}
        <Box aria-hidden sx={{ position: 'absolute', left: -10000, width: 1, height: 1, overflow: 'hidden' }}>
          <label>
            Website
            <input
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={form.website}
              onChange={set('website')}
            />
          </label>
        </Box>
        <Box>
          <Button type="submit" variant="contained" disabled={send.isPending}>
            {t('contact.send')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
