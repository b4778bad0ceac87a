import { Alert, AlertTitle, Paper, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { formatDay, formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CorrectionsNote } from '../../../components/corrections-note.tsx';
import { PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { useVerification } from '../../../features/exports/api/verify.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useEventDateTime } from '../../../lib/event-time.ts';

/**
 * `/verify/{token}` (issue 16): what a certificate's QR code opens. Shows the result as the
 * server knows it now, so a certificate edited by hand is contradicted; a forged or altered
 * token is refused.
 */
export default function VerifyPage() {
  const { token = '' } = useParams();
  const { t, i18n } = useTranslation('exports');
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const verification = useVerification(token);
  const dateTime = useEventDateTime(verification.data?.timeZone);
  const title = t('verify.title');
  if (verification.isPending) return <PageLoading />;
  if (verification.isError || !verification.data) {
    const invalid = verification.error instanceof ApiError && verification.error.status === 404;
    return (
      <>
        <PageHeader title={title} crumbs={[[title]]} />
        <Alert severity="error" role="alert" data-testid="verify-invalid">
          <AlertTitle>{invalid ? t('verify.invalid') : t('verify.unavailable')}</AlertTitle>
          {invalid && t('verify.invalidHelp')}
        </Alert>
      </>
    );
  }
  const v = verification.data;
  const rank = (r: number | null) => (r ? r.toLocaleString(lng) : '—');
  const changed = v.netMs !== null && v.netMs !== v.certificateNetMs;
  const rows: [string, string][] = [
    [t('verify.event'), v.eventName],
    [t('verify.race'), `${v.race.name} · ${formatDay(v.race.date, lng)}`],
    [t('verify.athlete'), v.athlete.name],
    [t('verify.bib'), v.athlete.bib],
    [t('verify.category'), v.athlete.category ?? '—'],
    [t('verify.status'), t(`verify.statuses.${v.status}`, { defaultValue: v.status })],
    [t('verify.netTime'), formatDuration(v.netMs) || '—'],
    [t('verify.gunTime'), formatDuration(v.gunMs) || '—'],
    [t('verify.rankOverall'), rank(v.rankOverall)],
    [t('verify.rankGender'), rank(v.rankGender)],
    [t('verify.rankCategory'), rank(v.rankCategory)],
    [t('verify.issued'), dateTime(v.issuedAt)],
  ];
  return (
    <>
      <PageHeader title={title} crumbs={[[title]]} />
      <Alert
        severity={changed || v.replacedAtMs ? 'warning' : 'success'}
        sx={{ mb: 2 }}
        data-testid="verify-valid"
      >
        <AlertTitle>{t('verify.genuine')}</AlertTitle>
        {changed
          ? t('verify.changed', { printed: formatDuration(v.certificateNetMs), now: formatDuration(v.netMs) })
          : t('verify.matches')}
        {/* Issue 43: corrected after it was issued, the certificate was replaced (re-issued). */}
        {v.replacedAtMs ? (
          <Typography data-testid="verify-replaced" sx={{ mt: 1 }}>
            {t('verify.replaced', { at: dateTime(v.replacedAtMs) })}
          </Typography>
        ) : null}
      </Alert>
      <CorrectionsNote corrections={v.corrections} timeZone={v.timeZone} />
      <Paper variant="outlined" sx={{ maxWidth: 640 }}>
        <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
          {t('verify.resultNow')}
        </Typography>
        <Table size="small" aria-label={t('verify.resultNow')}>
          <TableBody>
            {rows.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 600, width: '40%' }}>
                  {label}
                </TableCell>
                <TableCell>{value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </>
  );
}
