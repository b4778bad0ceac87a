import { Card, CardActions, CardContent, FormControlLabel, Link, Switch, Typography } from '@mui/material';
import type { MyResult } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** One result of mine: event, race, bib, the live card, and whether my name is hidden on it. */
export function MyResultCard({
  result,
  busy,
  onHide,
}: {
  result: MyResult;
  busy: boolean;
  onHide(hidden: boolean): void;
}) {
  const { t, i18n } = useTranslation('runner');
  const date = new Date(`${result.date}T12:00:00Z`).toLocaleDateString(i18n.language);
  return (
    <Card variant="outlined" component="li" data-testid="my-result" sx={{ listStyle: 'none' }}>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="overline" color="text.secondary">
          {result.organisationName} · {date}
        </Typography>
        <Typography variant="h6" component="h2">
          {result.eventName} — {result.raceName}
        </Typography>
        <Typography>
          {result.firstName} {result.lastName}
          {result.bib ? ` · ${t('bib', { bib: result.bib })}` : ''}
        </Typography>
        {result.hidden && (
          <Typography variant="body2" color="text.secondary" data-testid="my-result-hidden">
            {t('hidden')}
          </Typography>
        )}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', px: 2 }}>
        <FormControlLabel
          control={
            <Switch checked={result.hidden} disabled={busy} onChange={(_e, checked) => onHide(checked)} />
          }
          label={t('hideOne')}
        />
        <Link component={RouterLink} to={paths.tracking(result.eventId, result.trackingKey)}>
          {t('card')}
        </Link>
      </CardActions>
    </Card>
  );
}
