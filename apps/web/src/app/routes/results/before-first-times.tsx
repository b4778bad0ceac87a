import { Alert, Link } from '@mui/material';
import type { ReportTable } from '@tempora/contracts';
import { formatDateTime } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useEventDetail } from '../../../features/live/api.ts';
import { formatCount } from '../../../lib/intl.ts';
import { pointName } from '../../../lib/point-name.ts';
import { hasTimes } from './has-times.ts';

/**
 * A ranked list of a live race before its first split (issue 43: 2,400 rows of blanks sorted by
 * bib): says when the race started (or starts) and from about when the first times come at the
 * first point, in the event's zone, and leads to the start list meanwhile.
 */
export function BeforeFirstTimes({ eventId, table }: { eventId: string; table: ReportTable }) {
  const { t, i18n } = useTranslation('results');
  const event = useEventDetail(eventId);
  const races = event.data?.races ?? [];
  const inContext = races.filter((r) => r.db === table.db);
  const race = races.find((r) => r.id === table.group) ?? (inContext.length === 1 ? inContext[0] : undefined);
  const start = race?.start;
  if (!event.data || !start || event.data.status !== 'live' || hasTimes(table)) return null;
  const lng = i18n.language;
  const zone = event.data.timeZone;
  const clock = (ms: number) => formatDateTime(ms, zone, lng, { date: false });
  const started = start.gunTimeMs <= Date.now();
  const point = start.firstPoint && pointName(start.firstPoint, lng);
  return (
    <Alert severity="info" sx={{ mb: 1.5 }} data-testid="before-first-times" role="status">
      {t(started ? 'beforeTimes.started' : 'beforeTimes.starts', { time: clock(start.gunTimeMs) })}{' '}
      {point &&
        start.firstTimesMs !== null &&
        t('beforeTimes.first', { point, time: clock(start.firstTimesMs) })}{' '}
      {table.report !== 'START' && (
        <Link
          component={RouterLink}
          to={paths.report(eventId, table.group, 'START')}
          sx={{ fontWeight: 600 }}
        >
          {t('beforeTimes.startList', { count: table.total, runners: formatCount(table.total, lng) })}
        </Link>
      )}
    </Alert>
  );
}
