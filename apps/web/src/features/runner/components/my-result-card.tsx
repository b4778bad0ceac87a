import {
  Box,
  Card,
  CardActions,
  CardContent,
  FormControlLabel,
  Link,
  Switch,
  Typography,
} from '@mui/material';
import type { MyResult } from '@tempora/contracts';
import { formatDay, formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { certificateLink } from '../api/my-results.ts';

/**
 * One result of mine: event, race, time, ranks, splits, predicted and actual finish, the
 * certificate, the photos of my bib, the live card, and whether my name is hidden on it.
 */
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
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const date = formatDay(result.date, lng);
  const finished = result.status === 'finished';
  const rank = (n: number | null) => (n ? n.toLocaleString(lng) : '—');
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
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, my: 1 }}>
          {finished ? (
            <>
              <dt>{t('time')}</dt>
              <dd data-testid="my-result-time">{formatDuration(result.netMs)}</dd>
              <dt>{t('rankOverall')}</dt>
              <dd data-testid="my-result-rank">{rank(result.rankOverall)}</dd>
              <dt>{t('rankGender')}</dt>
              <dd>{rank(result.rankGender)}</dd>
              <dt>{t('rankCategory')}</dt>
              <dd>
                {rank(result.rankCategory)}
                {result.category ? ` (${result.category})` : ''}
              </dd>
              {result.predictedNetMs !== null && (
                <>
                  <dt>{t('predicted')}</dt>
                  <dd>{formatDuration(result.predictedNetMs)}</dd>
                </>
              )}
            </>
          ) : (
            <>
              <dt>{t('time')}</dt>
              <dd>{t(`statuses.${result.status}`, { defaultValue: result.status })}</dd>
            </>
          )}
        </Box>
        {result.splits.some((s) => s.netMs !== null) && (
          <details>
            <summary>{t('splits')}</summary>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {result.splits.map((s) => (
                <li key={s.pointKey}>
                  {lng === 'fr' ? s.nameFr : s.name} : {formatDuration(s.netMs) || '—'}
                </li>
              ))}
            </Box>
          </details>
        )}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', px: 2, gap: 1 }}>
        <FormControlLabel
          control={
            <Switch checked={result.hidden} disabled={busy} onChange={(_e, checked) => onHide(checked)} />
          }
          label={t('hideOne')}
        />
        {finished && (
          <Link
            href={certificateLink(result.trackingKey, lng)}
            target="_blank"
            rel="noopener"
            data-testid="my-result-certificate"
          >
            {t('certificate')}
          </Link>
        )}
        {result.bib && (
          <Link
            component={RouterLink}
            to={`${paths.photobox()}?event=${encodeURIComponent(result.eventId)}&q=${encodeURIComponent(result.bib)}`}
          >
            {t('photos')}
          </Link>
        )}
        <Link component={RouterLink} to={paths.tracking(result.eventId, result.trackingKey)}>
          {t('card')}
        </Link>
      </CardActions>
    </Card>
  );
}
