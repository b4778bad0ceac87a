import { Alert, Box, Button, Card, CardActions, CardContent, TextField, Typography } from '@mui/material';
import type { ClaimSuggestion } from '@tempora/contracts';
import { formatDay } from '@tempora/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useClaimSuggestions, useConfirmClaim, useOpenClaim } from '../api/claims.ts';

/** A claim's failure in words (a wrong or expired code, anything else). */
function useClaimError() {
  const { t } = useTranslation('runner');
  return (error: unknown) => {
    const code = error instanceof ApiError ? error.code : '';
    if (code === 'CLAIM_CODE_INVALID') return t('codeInvalid');
    if (code === 'CLAIM_EXPIRED') return t('codeExpired');
    return t('claimFailed');
  };
}

/** The code dialog: the code mailed to the entry's address proves the claim. */
export function ClaimCodeDialog({ claimId, onClose }: { claimId: string; onClose(): void }) {
  const { t } = useTranslation('runner');
  const confirm = useConfirmClaim();
  const message = useClaimError();
  return (
    <FormDialog
      title={t('codeTitle')}
      onClose={onClose}
      submitLabel={t('confirm')}
      cancelLabel={t('cancel')}
      error={confirm.isError ? message(confirm.error) : undefined}
      onSubmit={async (form) => {
        const code = String(new FormData(form).get('code') ?? '');
        await confirm.mutateAsync({ claimId, code });
        onClose();
      }}
    >
      <TextField
        name="code"
        label={t('code')}
        autoFocus
        required
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 12 } }}
      />
    </FormDialog>
  );
}

function Suggestion({ s, onCode }: { s: ClaimSuggestion; onCode(claimId: string): void }) {
  const { t, i18n } = useTranslation('runner');
  const open = useOpenClaim();
  const message = useClaimError();
  const claimId = open.data?.id ?? s.pendingClaimId;
  const date = formatDay(s.date, i18n.language);
  return (
    <Card variant="outlined" component="li" sx={{ listStyle: 'none' }} data-testid="claim-suggestion">
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="overline" color="text.secondary">
          {s.organisationName} · {date}
        </Typography>
        <Typography variant="subtitle1" component="h3">
          {s.eventName} — {s.raceName}
          {s.bib ? ` · ${t('bib', { bib: s.bib })}` : ''}
        </Typography>
        {claimId && s.method === 'email' && (
          <Typography variant="body2">{t('claimEmailSent', { email: s.maskedEmail })}</Typography>
        )}
        {claimId && s.method === 'organiser' && (
          <Typography variant="body2">{t('claimOrganiser')}</Typography>
        )}
        {open.isError && (
          <Alert severity="error" role="alert">
            {message(open.error)}
          </Alert>
        )}
      </CardContent>
      <CardActions sx={{ px: 2 }}>
        {!claimId && (
          <Button variant="contained" disabled={open.isPending} onClick={() => open.mutate(s.participantId)}>
            {t('claim')}
          </Button>
        )}
        {claimId && s.method === 'email' && (
          <>
            <Button variant="contained" onClick={() => onCode(claimId)}>
              {t('enterCode')}
            </Button>
            <Button disabled={open.isPending} onClick={() => open.mutate(s.participantId)}>
              {t('claim')}
            </Button>
          </>
        )}
      </CardActions>
    </Card>
  );
}

/** Results that may be mine, each claimed by its proof (issue 40: proven, never guessed). */
export function ClaimSuggestions() {
  const { t } = useTranslation('runner');
  const suggestions = useClaimSuggestions();
  const [coding, setCoding] = useState<string | null>(null);
  if (!suggestions.data?.length) return null;
  return (
    <Box component="section" aria-labelledby="claim-suggestions" sx={{ mb: 3 }}>
      <Typography id="claim-suggestions" variant="h6" component="h2">
        {t('suggestions')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('suggestionsHelp')}
      </Typography>
      <Box component="ul" sx={{ p: 0, m: 0, display: 'grid', gap: 1 }}>
        {suggestions.data.map((s) => (
          <Suggestion key={s.participantId} s={s} onCode={setCoding} />
        ))}
      </Box>
      {coding && <ClaimCodeDialog claimId={coding} onClose={() => setCoding(null)} />}
    </Box>
  );
}
