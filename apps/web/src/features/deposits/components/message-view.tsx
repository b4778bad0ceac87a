import {
  Alert,
  Box,
  Button,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { DepositDetail, MessageInput } from '@tempora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/money.ts';
import { depositApi, depositKeys, useMessages } from '../api/deposits.ts';

const AUDIENCES = ['all', 'missing', 'unpaid', 'organiser'] as const;

/** `message`: the captain writes to members (all, missing data, unpaid) or the organiser; the thread. */
export function MessageView({ deposit }: { deposit: DepositDetail }) {
  const { t, i18n } = useTranslation('deposits');
  const messages = useMessages(deposit.id);
  const client = useQueryClient();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const input: MessageInput = {
      audience: form.get('audience') as MessageInput['audience'],
      subject: String(form.get('subject') ?? ''),
      body: String(form.get('body') ?? ''),
    };
    try {
      const sent = await depositApi.postMessage(deposit.id, input);
      setStatus({ ok: true, text: t('message.sent', { count: sent.recipients }) });
      formElement.reset();
      await client.invalidateQueries({ queryKey: depositKeys.messages(deposit.id) });
    } catch (e) {
      setStatus({
        ok: false,
        text:
          e instanceof ApiError ? t(`errors.${e.code}`, { defaultValue: e.message }) : t('errors.generic'),
      });
    }
  };
  return (
    <>
      {deposit.role === 'captain' && (
        <Paper
          component="form"
          variant="outlined"
          onSubmit={handleSubmit}
          sx={{ p: 2, mb: 3, display: 'grid', gap: 2 }}
        >
          <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
            {t('message.write')}
          </Typography>
          <TextField select name="audience" label={t('message.audience')} defaultValue="all">
            {AUDIENCES.map((a) => (
              <MenuItem key={a} value={a}>
                {t(`message.audiences.${a}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            name="subject"
            label={t('message.subject')}
            required
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <TextField name="body" label={t('message.body')} required multiline minRows={4} />
          <Box>
            <Button type="submit" variant="contained">
              {t('message.send')}
            </Button>
          </Box>
          {status && (
            <Alert severity={status.ok ? 'success' : 'error'} role={status.ok ? 'status' : 'alert'}>
              {status.text}
            </Alert>
          )}
        </Paper>
      )}
      <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
        {t('message.thread')}
      </Typography>
      {messages.data?.length ? (
        <List>
          {messages.data.map((m) => (
            <ListItem key={m.id} divider alignItems="flex-start">
              <ListItemText
                primary={`${m.subject} — ${t(`message.audiences.${m.audience}`)}`}
                secondary={
                  <>
                    <Typography
                      component="span"
                      variant="body2"
                      sx={{ display: 'block', whiteSpace: 'pre-line', color: 'text.primary' }}
                    >
                      {m.body}
                    </Typography>
                    {t('message.meta', {
                      author: m.authorName,
                      date: formatDateTime(m.createdAt, i18n.language),
                      count: m.recipients,
                    })}
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography color="text.secondary">{t('message.none')}</Typography>
      )}
    </>
  );
}
