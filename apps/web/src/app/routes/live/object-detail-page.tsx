import {
  Box,
  Chip,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { SharedObject } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useSharedObject } from '../../../features/live/api/get-shared-object.ts';
import { useEventName } from '../../../features/live/api.ts';
import { AthleteCard } from '../../../features/live/athlete-card.tsx';

/**
 * `…/ctx/{db}/generic/{path}/objectdetail/{token}` (issue 7): a team or an athlete through an
 * opaque share token. A team is a club of a race: its rank among complete teams, the total of its
 * scoring runners' net times, and every member with their result; live on every passing.
 */
export default function ObjectDetailPage() {
  const { t } = useTranslation('live');
  const { eventId = '', token = '' } = useParams();
  const eventName = useEventName(eventId);
  const detail = useSharedObject(token);
  const title = detail.data?.kind === 'team' ? detail.data.team.name : t('title');
  return (
    <>
      <PageHeader title={title} crumbs={[[eventName, paths.eventHome(eventId)], [title]]} />
      {detail.isPending && <PageLoading />}
      {detail.isError && <PageError error={detail.error} />}
      {detail.data?.kind === 'athlete' && <AthleteCard card={detail.data.card} />}
      {detail.data?.kind === 'team' && <TeamCard detail={detail.data} />}
    </>
  );
}

function TeamCard({ detail }: { detail: Extract<SharedObject, { kind: 'team' }> }) {
  const { t } = useTranslation('live');
  const { team } = detail;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }} data-testid="team-card">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, alignItems: 'baseline', mb: 1 }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          {team.rank ? t('team.rank', { rank: team.rank, teams: detail.teams }) : t('team.incomplete')}
        </Typography>
        <Typography color="text.secondary">{detail.race.name}</Typography>
        {team.finishers > 0 && (
          <Typography sx={{ ml: 'auto', fontSize: 28, fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
            {formatDuration(team.totalMs)}
          </Typography>
        )}
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('team.rule', { count: detail.scoring, finishers: team.finishers, members: team.members.length })}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={t('team.members')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('team.member')}</TableCell>
              <TableCell>{t('team.status')}</TableCell>
              <TableCell align="right">{t('time')}</TableCell>
              <TableCell align="right">{t('rank')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {team.members.map((m) => (
              <TableRow key={m.bib} data-bib={m.bib} sx={m.scoring ? { bgcolor: 'action.hover' } : undefined}>
                <TableCell>
                  <Link component={RouterLink} to={`/tracking/${encodeURIComponent(m.trackingKey)}`}>
                    {m.name}
                  </Link>{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    #{m.bib}
                  </Typography>
                  {m.scoring && <Chip size="small" label={t('team.scoring')} sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>{t(`status.${m.status}`)}</TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatDuration(m.netMs)}
                </TableCell>
                <TableCell align="right">{m.rank ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}
