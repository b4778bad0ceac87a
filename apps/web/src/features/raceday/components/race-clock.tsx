import { Box, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayZone, formatClock } from '../time.ts';

/** The server's time (the browser's clock corrected by the measured skew), ticking, with its zone. */
export function RaceClock({ skewMs, timeZone }: { skewMs: number; timeZone?: string | undefined }) {
  const { t } = useTranslation('raceday');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  return (
    <Box sx={{ textAlign: 'right' }} aria-label={t('clock.server')}>
      <Typography
        component="div"
        sx={{ fontFamily: 'monospace', fontSize: 24, lineHeight: 1.1 }}
        data-testid="server-clock"
      >
        {formatClock(now + skewMs, timeZone).slice(0, 10)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t('clock.caption', { zone: displayZone(timeZone), skew: Math.round(skewMs) })}
      </Typography>
    </Box>
  );
}
