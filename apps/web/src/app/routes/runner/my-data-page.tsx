import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { ErasureResult } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { downloadMyData, useEraseAccount, useErasurePreview } from '../../../features/runner/api/my-data.ts';
import { useAuth } from '../../../lib/auth/auth-context.tsx';
import { formatMoney } from '../../../lib/money.ts';

/** "Download my data": JSON and PDF (in the page's language). */
function DownloadSection() {
  const { t, i18n } = useTranslation('privacy');
  const [busy, setBusy] = useState<'json' | 'pdf' | null>(null);
  const [failed, setFailed] = useState(false);
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const download = (kind: 'json' | 'pdf') => {
    setBusy(kind);
    setFailed(false);
    downloadMyData(kind, lng)
      .catch(() => setFailed(true))
      .finally(() => setBusy(null));
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="download-title" sx={{ p: 2, mb: 2 }}>
      <Typography id="download-title" variant="h6" component="h2">
        {t('download.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('download.help')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Button variant="outlined" disabled={busy !== null} onClick={() => download('json')}>
          {t('download.json')}
        </Button>
        <Button variant="outlined" disabled={busy !== null} onClick={() => download('pdf')}>
          {t('download.pdf')}
        </Button>
      </Stack>
      {failed && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {t('download.failed')}
        </Alert>
      )}
    </Paper>
  );
}

/** The confirm step: what happens (entries cancelled and refunded, results kept anonymous, the rest removed). */
function EraseDialog({ onClose, onDone }: { onClose(): void; onDone(result: ErasureResult): void }) {
  const { t, i18n } = useTranslation('privacy');
  const preview = useErasurePreview(true);
  const erase = useEraseAccount();
  const [email, setEmail] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const data = preview.data;
  const blocked = (data?.blockers.length ?? 0) > 0;
  const submit = () => {
    if (!data) return;
    if (email.trim().toLowerCase() !== data.email.toLowerCase()) {
      setMismatch(true);
      return;
    }
    erase.mutate(email.trim(), { onSuccess: onDone });
  };
  return (
    <Dialog open onClose={erase.isPending ? undefined : onClose} aria-labelledby="erase-title" fullWidth>
      <DialogTitle id="erase-title">{t('erase.dialogTitle')}</DialogTitle>
      <DialogContent>
        {preview.isPending && <PageLoading />}
        {preview.isError && <PageError error={preview.error} />}
        {data && (
          <Stack spacing={1.5} data-testid="erase-preview">
            <Typography variant="subtitle2" component="h3">
              {t('erase.entriesTitle')}
            </Typography>
            {data.entriesToCancel.length === 0 ? (
              <Typography variant="body2">{t('erase.noEntries')}</Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {data.entriesToCancel.map((e) => (
                  <li key={e.code} data-testid="erase-entry">
                    <Typography variant="body2">
                      {t('erase.entry', { event: e.eventName, race: e.raceName, date: e.raceDate })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {e.policyAllows
                        ? t('erase.refund', { amount: formatMoney(e.refundCents, e.currency, i18n.language) })
                        : t('erase.noRefund')}
                    </Typography>
                  </li>
                ))}
              </Box>
            )}
            <Typography variant="body2">
              {t('erase.results', { count: data.resultsKeptAnonymous })}
            </Typography>
            <Typography variant="body2">
              {t('erase.removed', { follows: data.follows, about: data.alertSubscriptionsAboutMe })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('erase.organisers')}
            </Typography>
            {data.blockers.map((b) => (
              <Alert key={b} severity="warning">
                {t(`erase.blocked.${b}`)}
              </Alert>
            ))}
            {!blocked && (
              <TextField
                label={t('erase.confirmLabel')}
                type="email"
                autoComplete="off"
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  setMismatch(false);
                }}
                error={mismatch}
                helperText={mismatch ? t('erase.mismatch') : ' '}
                slotProps={{ htmlInput: { 'data-testid': 'erase-confirm-email' } }}
                fullWidth
              />
            )}
            {erase.isError && (
              <Alert severity="error" role="alert">
                {t('erase.failed')}
              </Alert>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={erase.isPending}>
          {t('erase.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={!data || blocked || erase.isPending || !email.trim()}
          onClick={submit}
        >
          {t('erase.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * `/me/data` (issue 40, GDPR articles 15 and 17): download everything Tempora holds about me (JSON,
 * PDF), and delete my account after a confirm step saying what happens.
 */
export default function MyDataPage() {
  const { t, i18n } = useTranslation('privacy');
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<ErasureResult | null>(null);
  const title = t('title');
  const close = async () => {
    await signOut();
    navigate(paths.home());
  };
  return (
    <>
      <PageHeader title={title} crumbs={[[title]]} />
      <DownloadSection />
      <Paper variant="outlined" component="section" aria-labelledby="erase-section" sx={{ p: 2, mb: 2 }}>
        <Typography id="erase-section" variant="h6" component="h2">
          {t('erase.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('erase.help')}
        </Typography>
        <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
          {t('erase.start')}
        </Button>
      </Paper>
      {asking && !done && (
        <EraseDialog
          onClose={() => setAsking(false)}
          onDone={(result) => {
            setAsking(false);
            setDone(result);
          }}
        />
      )}
      {done && (
        <Dialog open aria-labelledby="erased-title" onClose={() => void close()}>
          <DialogTitle id="erased-title">{t('erase.doneTitle')}</DialogTitle>
          <DialogContent>
            <Typography data-testid="erase-done">
              {t('erase.done', {
                entries: done.entriesCancelled,
                amount: formatMoney(done.refundedCents, 'EUR', i18n.language),
                results: done.resultsKeptAnonymous,
              })}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={() => void close()}>
              {t('erase.ok')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
