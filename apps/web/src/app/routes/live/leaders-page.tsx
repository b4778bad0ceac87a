import {
  Box,
  Card,
  CardContent,
  Link,
  List,
  ListItemButton,
  ListItemText,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { formatDuration, formatGap } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useContextRaces } from '../../../features/live/api/get-context-races.ts';
import { useLeaders } from '../../../features/live/api/get-leaders.ts';
import { pointName } from '../../../lib/point-name.ts';
import { runnerName } from '../../../lib/runner-name.ts';

/**
 * The points as a spectator reads the race (issue 43: the oldest point came first and the front
 * of the race was below the fold on a phone): the furthest point anyone has reached first, back
 * to the start; the points nobody has reached yet after them, in course order.
 */
export function frontFirst<P extends { rows: readonly unknown[] }>(points: readonly P[]): P[] {
  const reached = points.filter((p) => p.rows.length > 0).reverse();
  return [...reached, ...points.filter((p) => p.rows.length === 0)];
}

/** `/firstrow/{db}` (pick a race) and `/firstrow/{db}/race/{race}`: the leaders at every point, live. */
export default function LeadersPage() {
  const { t, i18n } = useTranslation('live');
  const { db = '', race } = useParams();
  const races = useContextRaces(db, !race);
  const board = useLeaders(db, race);
  if (!race) {
    return (
      <>
        <PageHeader title={t('leaders')} crumbs={[[t('leaders')]]} />
        {races.isPending && <PageLoading />}
        {races.isError && <PageError error={races.error} />}
        <List>
          {races.data?.map((r) => (
            <ListItemButton
              key={r.id}
              component={RouterLink}
              to={`/firstrow/${encodeURIComponent(db)}/race/${encodeURIComponent(r.id)}`}
            >
              <ListItemText primary={r.name} />
            </ListItemButton>
          ))}
        </List>
      </>
    );
  }
  if (board.isPending) return <PageLoading />;
  if (board.isError) return <PageError error={board.error} />;
  const { event } = board.data;
  return (
    <>
      <PageHeader
        title={`${t('leaders')} — ${board.data.name}`}
        // Issue 43: the breadcrumbs keep the event.
        crumbs={[
          ...(event ? ([[event.name, paths.eventHome(event.id)]] as [string, string][]) : []),
          [t('leaders'), `/firstrow/${encodeURIComponent(db)}`],
          [board.data.name],
        ]}
      />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' },
        }}
      >
        {frontFirst(board.data.points).map((point) => (
          <Card key={point.key} variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">
                {pointName(point, i18n.language)}
              </Typography>
              {point.rows.length === 0 ? (
                <Typography color="text.secondary">{t('nobodyYet')}</Typography>
              ) : (
                <Table size="small" aria-label={pointName(point, i18n.language)}>
                  <TableBody>
                    {point.rows.map((row) => (
                      <TableRow key={row.bib}>
                        <TableCell sx={{ fontWeight: 700, width: 32 }}>{row.rank}</TableCell>
                        <TableCell>
                          {/* Issue 27: a leader's name opens their card. */}
                          <Link
                            component={RouterLink}
                            to={paths.athlete(row.trackingKey)}
                            sx={{ fontWeight: 600 }}
                          >
                            {runnerName(row.name)}
                          </Link>{' '}
                          <Typography component="span" variant="caption" color="text.secondary">
                            #{row.bib}
                          </Typography>
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700 }}>
                          {formatDuration(row.netMs)}
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                          {formatGap(row.gapMs, i18n.language)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        ))}
      </Box>
    </>
  );
}
