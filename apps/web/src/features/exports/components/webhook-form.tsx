import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  FormGroup,
  Stack,
  TextField,
} from '@mui/material';
import { type WebhookCreated, type WebhookType, webhookTypes } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateWebhook } from '../api/webhooks.ts';

/** Registers a webhook; the secret is shown here once, right after. */
export function WebhookForm({ eventId }: { eventId: string }) {
  const { t } = useTranslation('exports');
  const create = useCreateWebhook(eventId);
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<WebhookType[]>([...webhookTypes]);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const urlError = create.error instanceof ApiError ? create.error.fieldErrors.url?.[0] : undefined;
  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(
          { url: url.trim(), types },
          {
            onSuccess: (w) => {
              setCreated(w);
              setUrl('');
            },
          },
        );
      }}
      sx={{ mb: 3 }}
    >
      <Stack spacing={1.5}>
        <TextField
          label={t('webhooks.url')}
          placeholder="https://example.org/tempora"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          required
          type="url"
          error={!!urlError}
          helperText={urlError ? t('webhooks.badUrl') : t('webhooks.urlHelp')}
          size="small"
        />
        <FormGroup row aria-label={t('webhooks.types')}>
          {webhookTypes.map((type) => (
            <FormControlLabel
              key={type}
              control={
                <Checkbox
                  checked={types.includes(type)}
                  onChange={(e) =>
                    setTypes(e.target.checked ? [...types, type] : types.filter((x) => x !== type))
                  }
                />
              }
              label={t(`webhooks.typeNames.${type}`)}
            />
          ))}
        </FormGroup>
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={create.isPending || !types.length || !url.trim()}
          >
            {t('webhooks.add')}
          </Button>
        </Box>
        {create.isError && !urlError && <Alert severity="error">{t('webhooks.addFailed')}</Alert>}
        {created && (
          <Alert severity="success" onClose={() => setCreated(null)} data-testid="webhook-secret">
            <AlertTitle>{t('webhooks.secretTitle')}</AlertTitle>
            {t('webhooks.secretHelp')}
            <Box component="code" sx={{ display: 'block', mt: 1, wordBreak: 'break-all', fontSize: 14 }}>
              {created.secret}
            </Box>
          </Alert>
        )}
      </Stack>
    </Box>
  );
}
