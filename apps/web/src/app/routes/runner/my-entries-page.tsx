import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardActions,
  CardContent,
  Chip,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import {
  downloadCreditNote,
  downloadInvoice,
  downloadReceipt,
  useMyEntries,
  useMyWaitlists,
} from '../../../features/entries/api/entries.ts';
import { EntryCredit } from '../../../features/entries/components/entry-credit.tsx';
import { entriesPaths } from '../../../features/entries/paths.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';
import { formatDateTime } from '../../../lib/money.ts';

/**
 * `/me/entries` (issue 38): the runner's entries with their status and bib, each opening its page;
 * then their waitlist places (position, invitation, or the race closed while waiting).
 */
export default function MyEntriesPage() {
  const { t, i18n } = useTranslation('entries');
  const entries = useMyEntries();
  const waitlists = useMyWaitlists();
  // The race's day in the page's language ("6 juin 2027"), not as stored.
  const day = (iso: string) =>
    Number.isNaN(Date.parse(iso))
      ? iso
      : dateTimeFormat(i18n.language === 'fr' ? 'fr-BE' : 'en-GB', {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(Date.parse(iso));
  if (entries.isPending) return <PageLoading />;
  if (entries.isError) return <PageError error={entries.error} />;
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <PageHeader title={t('mine.title')} crumbs={[[t('mine.title')]]} />
      {entries.data.length === 0 && <Typography color="text.secondary">{t('mine.empty')}</Typography>}
      <Stack spacing={1.5}>
        {entries.data.map((e) => (
          <Card key={e.code} variant="outlined" data-testid="my-entry">
            <CardActionArea component={RouterLink} to={paths.entry(e.code)}>
              <CardContent>
                <Typography variant="subtitle1">
                  {e.eventName} — {e.raceName}
                </Typography>
                <Typography variant="body2">
                  {e.name} · {day(e.raceDate)} · {e.bib ? t('mine.bib', { bib: e.bib }) : t('mine.noBib')}
                </Typography>
                <Chip
                  size="small"
                  sx={{ mt: 1 }}
                  label={t(`states.${e.state}`)}
                  color={e.state === 'confirmed' ? 'success' : 'default'}
                />
              </CardContent>
            </CardActionArea>
            {e.credit && (
              <Box sx={{ px: 2 }}>
                <EntryCredit entry={e} />
              </Box>
            )}
            <CardActions sx={{ flexWrap: 'wrap' }}>
              <Button size="small" component={RouterLink} to={entriesPaths.startList(e.eventId)}>
                {t('mine.startList')}
              </Button>
              {e.receipt && e.orderId && (
                <Button size="small" onClick={() => void downloadReceipt(e.orderId as string)}>
                  {t('confirmation.receipt')}
                </Button>
              )}
              {e.invoice && e.orderId && (
                <Button size="small" onClick={() => void downloadInvoice(e.orderId as string)}>
                  {t('confirmation.invoice')}
                </Button>
              )}
              {e.orderId &&
                e.creditNotes.map((number) => (
                  <Button
                    key={number}
                    size="small"
                    onClick={() => void downloadCreditNote(e.orderId as string, number)}
                    data-testid="credit-note"
                  >
                    {t('confirmation.creditNote', { number })}
                  </Button>
                ))}
            </CardActions>
          </Card>
        ))}
      </Stack>
      {waitlists.data && waitlists.data.length > 0 && (
        <>
          <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
            {t('mine.waitlists')}
          </Typography>
          <Stack spacing={1.5}>
            {waitlists.data.map((w) => (
              <Card key={w.id} variant="outlined" data-testid="my-waitlist">
                <CardContent>
                  <Typography variant="subtitle1">
                    {w.eventName} — {w.raceName}
                  </Typography>
                  <Chip
                    size="small"
                    sx={{ mt: 1, height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 } }}
                    // Only an invitation stands out (the theme's orange chip is below 4.5:1 with white text).
                    color={w.state === 'invited' ? 'success' : 'default'}
                    variant={w.state === 'waiting' || w.state === 'invited' ? 'filled' : 'outlined'}
                    label={t(`mine.waitlist.${w.state}`, {
                      position: w.position ?? '',
                      until: w.invitedUntil ? formatDateTime(w.invitedUntil, i18n.language) : '',
                    })}
                  />
                </CardContent>
              </Card>
            ))}
          </Stack>
        </>
      )}
    </Box>
  );
}
