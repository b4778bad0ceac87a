import {
  Box,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { shownRunnerName } from '@tempora/contracts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEntriesStartList } from '../../../features/entries/api/entries.ts';

/**
 * `/entries/{event}/start-list` (issue 38): each race's entrants with their bib once assigned,
 * their club or team, and the organiser's questions marked "shown on the start list" as columns.
 */
export default function EntriesStartListPage() {
  const { t, i18n } = useTranslation('entries');
  const { event = '' } = useParams();
  const list = useEntriesStartList(event);
  if (list.isPending) return <PageLoading />;
  if (list.isError) return <PageError error={list.error} />;
  const data = list.data;
  const lng = i18n.language === 'fr' ? 'fr' : 'en';
  const answer = (v: string | string[] | number | boolean | undefined) =>
    v === undefined
      ? ''
      : typeof v === 'boolean'
        ? t(v ? 'form.yes' : 'form.no')
        : Array.isArray(v)
          ? v.join(', ')
          : String(v);
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <PageHeader
        title={`${t('startList.title')} — ${data.eventName}`}
        crumbs={[[data.eventName, paths.entries(event)], [t('startList.title')]]}
      />
      {data.races.map((r) => (
        <Box key={r.raceId} sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {r.name} · {t('startList.count', { count: r.runners.length })}
          </Typography>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={r.name} data-testid={`start-list-${r.raceId}`}>
              <TableHead>
                <TableRow>
                  <TableCell align="right">{t('startList.bib')}</TableCell>
                  <TableCell>{t('startList.name')}</TableCell>
                  <TableCell>{t('startList.clubTeam')}</TableCell>
                  {data.columns.map((c) => (
                    <TableCell key={c.key}>{c.label}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {r.runners.map((p, n) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in the server's order
                  <TableRow key={n}>
                    <TableCell align="right">{p.bib ?? '–'}</TableCell>
                    <TableCell>{shownRunnerName(p.name, lng)}</TableCell>
                    <TableCell>{p.team ?? p.club}</TableCell>
                    {data.columns.map((c) => (
                      <TableCell key={c.key}>{answer(p.answers[c.key])}</TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      ))}
    </Box>
  );
}
