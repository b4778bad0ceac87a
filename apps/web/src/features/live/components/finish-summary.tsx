import { Box, Typography } from '@mui/material';
import type { AthleteCard } from '@tempora/contracts';
import { formatDuration, formatPaceIn, type PaceUnit } from '@tempora/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The finish's split of a card: the last point's, when the runner has a time there. */
export function finishSplit(card: AthleteCard) {
  const finish = card.race.points.at(-1);
  const split = finish && card.splits.find((s) => s.pointKey === finish.key);
  return split && split.netMs !== null ? split : null;
}

/**
 * What a finisher's card says first (issue 43): the time, the places overall, in the runner's
 * gender and category, and the pace in the event's unit (min/mile for a US race), then the
 * actions (the certificate among them) — all on a phone's first screen.
 */
export function FinishSummary({
  card,
  unit,
  actions,
}: {
  card: AthleteCard;
  unit: PaceUnit;
  actions?: ReactNode;
}) {
  const { t } = useTranslation('live');
  const split = finishSplit(card);
  if (card.status !== 'finished' || !split) return null;
  const gender = card.athlete.gender === 'F' || card.athlete.gender === 'M' ? card.athlete.gender : null;
  const places: [string, number | null][] = [
    [t('summary.overall'), split.rankOverall],
    [gender ? t(`summary.gender${gender}`) : t('rankGender'), split.rankGender],
    [card.athlete.category ?? t('rankCategory'), card.athlete.category ? split.rankCategory : null],
  ];
  const pace = formatPaceIn(split.paceMsPerKm, unit);
  return (
    <Box
      component="section"
      aria-label={t('summary.label')}
      data-testid="finish-summary"
      sx={{ my: 1.5, display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 3 }, alignItems: 'flex-end' }}
    >
      <Box>
        <Typography variant="caption" color="text.secondary" component="p">
          {t('summary.time')}
        </Typography>
        <Typography
          component="p"
          sx={{
            fontSize: { xs: 30, sm: 36 },
            fontWeight: 700,
            lineHeight: 1.1,
            fontVariantNumeric: 'tabular-nums',
          }}
          data-testid="finish-time"
        >
          {formatDuration(split.netMs ?? 0)}
        </Typography>
      </Box>
      <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 2.5 }, m: 0 }}>
        {places
          .filter(([, rank]) => rank)
          .map(([label, rank]) => (
            <Box key={label} data-testid="finish-place">
              <Typography component="dt" variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, fontSize: 20, fontWeight: 700 }}>
                {rank}
              </Typography>
            </Box>
          ))}
        {pace && (
          <Box data-testid="finish-pace">
            <Typography component="dt" variant="caption" color="text.secondary">
              {t('pace')}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontSize: 20, fontWeight: 700 }}>
              {t(`summary.pace_${unit}`, { pace })}
            </Typography>
          </Box>
        )}
      </Box>
      {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, flexBasis: '100%' }}>{actions}</Box>}
    </Box>
  );
}
