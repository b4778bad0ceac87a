import { Box, Link, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { usePublicRunner } from '../../../features/runner/api/public-runner.ts';

/** `/r/{slug}` (issue 40): a runner's public page, when they turned it on. */
export default function RunnerPage() {
  const { slug = '' } = useParams();
  const { t, i18n } = useTranslation('runner');
  const runner = usePublicRunner(slug);
  if (runner.isPending) return <PageLoading />;
  if (runner.isError) return <PageError error={runner.error} />;
  const { name, results, personalBests } = runner.data;
  const km = (m: number) => t('distance', { km: (m / 1000).toLocaleString(i18n.language) });
  return (
    <>
      <PageHeader title={name} crumbs={[[name]]} />
      {personalBests.length > 0 && (
        <Box component="ul" sx={{ mb: 2 }} aria-label={t('bests')}>
          {personalBests.map((b) => (
            <li key={b.distanceM}>
              {t('bestAt', {
                distance: km(b.distanceM),
                time: formatDuration(b.netMs),
                event: b.eventName,
                year: b.date.slice(0, 4),
              })}
            </li>
          ))}
        </Box>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('title')}</TableCell>
              <TableCell>{t('time')}</TableCell>
              <TableCell>{t('rankOverall')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {results.map((r) => (
              <TableRow key={r.trackingKey}>
                <TableCell>
                  <Link component={RouterLink} to={paths.tracking(r.eventId, r.trackingKey)}>
                    {r.eventName} — {r.raceName} ({r.date.slice(0, 4)})
                  </Link>
                </TableCell>
                <TableCell>
                  {r.status === 'finished'
                    ? formatDuration(r.netMs)
                    : t(`statuses.${r.status}`, { defaultValue: r.status })}
                </TableCell>
                <TableCell>{r.rankOverall ?? '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
}
