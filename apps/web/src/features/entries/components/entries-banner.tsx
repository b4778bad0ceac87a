import { Alert, Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatDateTime } from '../../../lib/money.ts';
import { useRegistrationPage } from '../api/entries.ts';

/**
 * On the event page (issue 38): whether entries are open and until when, with an "Enter" button;
 * nothing when the event takes no entries online.
 */
export function EntriesBanner({ eventId }: { eventId: string }) {
  const { t, i18n } = useTranslation('entries');
  const page = useRegistrationPage(eventId);
  if (!page.data) return null;
  const p = page.data;
  return (
    <Alert
      severity={p.open ? 'success' : 'info'}
      sx={{ mb: 2 }}
      data-testid="entries-banner"
      action={
        <Button component={RouterLink} to={paths.entries(eventId)} variant="contained" size="small">
          {t('enter')}
        </Button>
      }
    >
      {p.open
        ? p.closesAt
          ? t('open', { date: formatDateTime(p.closesAt, i18n.language, p.timeZone) })
          : t('openNoEnd')
        : t('closed')}
    </Alert>
  );
}
