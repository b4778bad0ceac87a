import { Alert, Box, Button, Typography } from '@mui/material';
import type { MyEntry } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatDateTime, formatMoney } from '../../../lib/money.ts';

/**
 * A deferred entry's credit for the next edition (issue 38): its amount; once the organiser has
 * named the next edition, the code only this runner can use there, the place kept for them in
 * the matching race (until its entries close) and a link to its entry page with the code and that
 * race filled in; or that it was used (and the rest refunded).
 */
export function EntryCredit({ entry }: { entry: MyEntry }) {
  const { t, i18n } = useTranslation('entries');
  const credit = entry.credit;
  if (!credit) return null;
  const event = credit.nextEventName ?? '';
  const money = (cents: number) => formatMoney(cents, credit.currency, i18n.language);
  const place = credit.place;
  return (
    <Alert severity={credit.used ? 'success' : 'info'} data-testid="entry-credit" sx={{ textAlign: 'left' }}>
      <Typography variant="subtitle2">{t('mine.credit', { amount: money(credit.cents) })}</Typography>
      {!credit.code || !credit.nextEventId ? (
        <Typography variant="body2">{t('mine.creditWaiting')}</Typography>
      ) : credit.used ? (
        <>
          <Typography variant="body2">{t('mine.creditUsed', { event })}</Typography>
          {credit.remainderCents ? (
            <Typography variant="body2" data-testid="credit-remainder">
              {t('mine.creditRefunded', { amount: money(credit.remainderCents) })}
            </Typography>
          ) : null}
        </>
      ) : (
        <>
          <Typography variant="body2">{t('mine.creditReady', { event })}</Typography>
          {place?.state === 'reserved' && (
            <Typography variant="body2" sx={{ mt: 0.5, fontWeight: 500 }} data-testid="credit-place">
              {place.until
                ? t('mine.placeReserved', {
                    race: place.raceName,
                    until: formatDateTime(place.until, i18n.language, place.timeZone),
                  })
                : t('mine.placeReservedNoEnd', { race: place.raceName })}
            </Typography>
          )}
          {place?.state === 'released' && (
            <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="credit-place">
              {t('mine.placeReleased', { race: place.raceName })}
            </Typography>
          )}
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
            to={`${paths.entries(credit.nextEventId)}?code=${encodeURIComponent(credit.code)}${
              place?.state === 'reserved' ? `&race=${encodeURIComponent(place.raceId)}` : ''
            }`}
            data-testid="enter-next"
          >
            {t('mine.enterNext', { event })}
          </Button>
        </>
      )}
    </Alert>
  );
}
