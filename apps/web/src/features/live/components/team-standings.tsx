import {
  Card,
  CardContent,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useRaceTeams } from '../api/get-race-stats.ts';

/** The race's clubs as teams (issue 7), each linking to its share page (`objectdetail/{token}`). */
export function TeamStandings({
  eventId,
  db,
  path,
  raceId,
}: {
  eventId: string;
  db: string;
  path: string;
  raceId: string;
}) {
  const { t } = useTranslation('live');
  const teams = useRaceTeams(db, raceId);
  if (!teams.data) return null;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('team.standings')}
        </Typography>
        {teams.data.teams.length === 0 ? (
          <Typography color="text.secondary">{t('team.none')}</Typography>
        ) : (
          <Table size="small" aria-label={t('team.standings')}>
            <TableHead>
              <TableRow>
                <TableCell align="right">{t('rank')}</TableCell>
                <TableCell>{t('team.team')}</TableCell>
                <TableCell align="right">{t('team.finishers')}</TableCell>
                <TableCell align="right">{t('team.total')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {teams.data.teams.slice(0, 15).map((team) => (
                <TableRow key={team.token}>
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    {team.rank ?? ''}
                  </TableCell>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={paths.genericObjectDetail(eventId, db, path, team.token)}
                    >
                      {team.name}
                    </Link>
                  </TableCell>
                  <TableCell align="right">
                    {team.finishers} / {team.size}
                  </TableCell>
                  <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatDuration(team.totalMs)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
