import { Box, Card, CardContent, Typography } from '@mui/material';
import type { TimeTrialBoard, TimeTrialRider } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { runnerName } from '../../../lib/runner-name.ts';

/** Tabular figures: times and ranks line up. */
export const num = { fontVariantNumeric: 'tabular-nums' } as const;

/** The time trial's best finisher so far (or nobody yet), in large type. */
export function HotSeat({ rider }: { rider: TimeTrialBoard['hotSeat'] }) {
  const { t } = useTranslation('live');
  return (
    <Card
      variant="outlined"
      sx={{ bgcolor: '#102a43', color: '#fff' }}
      component="section"
      aria-labelledby="hot-seat"
    >
      <CardContent>
        <Typography id="hot-seat" variant="overline" sx={{ color: '#bcccdc' }}>
          {t('clm.hotSeat')}
        </Typography>
        {rider ? (
          <Box
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 2 }}
            data-testid="hot-seat"
          >
            <Typography sx={{ fontSize: { xs: 24, md: 34 }, fontWeight: 700 }}>
              {runnerName(rider.name)}
            </Typography>
            <Typography sx={{ color: '#d9e2ec' }}>
              #{rider.bib}
              {rider.club ? ` · ${rider.club}` : ''}
            </Typography>
            <Typography sx={{ ...num, ml: 'auto', fontSize: { xs: 28, md: 40 }, fontWeight: 700 }}>
              {formatDuration(rider.netMs)}
            </Typography>
          </Box>
        ) : (
          <Typography sx={{ fontSize: 20 }}>{t('clm.nobodyFinished')}</Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** A rider's name, linking to their card, with their bib and club. */
export function RiderName({ rider: r }: { rider: TimeTrialRider }) {
  return (
    <>
      <Box
        component={RouterLink}
        to={`/tracking/${encodeURIComponent(r.trackingKey)}`}
        sx={{ color: 'inherit', fontWeight: 500 }}
      >
        {runnerName(r.name)}
      </Box>{' '}
      <Typography component="span" variant="caption" color="text.secondary">
        #{r.bib}
        {r.club ? ` · ${r.club}` : ''}
      </Typography>
    </>
  );
}

/** A card of the board: its title with a count, then its content. */
export function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  const id = `clm-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={id}>
      <CardContent>
        <Typography id={id} variant="h6" component="h2" sx={{ fontSize: 17, mb: 1 }}>
          {title}{' '}
          <Typography component="span" color="text.secondary">
            ({count})
          </Typography>
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
