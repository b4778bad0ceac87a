import { Alert, Box, Button, Typography } from '@mui/material';
import type { MyEntry } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatMoney } from '../../../lib/money.ts';

/**
 * A deferred entry's credit for the next edition (issue 38): its amount; once the organiser has
 * named the next edition, the code only this runner can use there and a link to its entry page
 * with the code filled in; or that it was used.
 */
export function EntryCredit({ entry }: { entry: MyEntry }) {
  const { t, i18n } = useTranslation('entries');
  const credit = entry.credit;
  if (!credit) return null;
  const event = credit.nextEventName ?? '';
  return (
    <Alert severity={credit.used ? 'success' : 'info'} data-testid="entry-credit" sx={{ textAlign: 'left' }}>
      <Typography variant="subtitle2">
        {t('mine.credit', { amount: formatMoney(credit.cents, credit.currency, i18n.language) })}
      </Typography>
      {!credit.code || !credit.nextEventId ? (
        <Typography variant="body2">{t('mine.creditWaiting')}</Typography>
      ) : credit.used ? (
        <Typography variant="body2">{t('mine.creditUsed', { event })}</Typography>
      ) : (
        <>
          <Typography variant="body2">{t('mine.creditReady', { event })}</Typography>
          <Box sx={{ my: 1 }}>
            <Typography variant="caption" color="text.secondary" component="div">
              {t('mine.creditCode')}
            </Typography>
            <Typography
              data-testid="credit-code"
              sx={{ fontFamily: 'monospace', fontSize: 15, overflowWrap: 'anywhere' }}
            >
              {credit.code}
            </Typography>
          </Box>
          <Button
            variant="contained"
            size="small"
            component={RouterLink}
            to={`${paths.entries(credit.nextEventId)}?code=${encodeURIComponent(credit.code)}`}
            data-testid="enter-next"
          >
            {t('mine.enterNext', { event })}
          </Button>
        </>
      )}
    </Alert>
  );
}
