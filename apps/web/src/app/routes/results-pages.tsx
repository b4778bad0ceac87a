import { mdiBroadcast, mdiMagnify } from '@mdi/js';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  InputAdornment,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReportList } from '@tempora/contracts';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../components/page-state.tsx';
import { paths } from '../../config/paths.ts';
import { useFavorites } from '../../features/results/favorites.ts';
import { searchRows } from '../../features/results/patch.ts';
import { ReportTable } from '../../features/results/report-table.tsx';
import { type ReportSource, useLiveReport, useReportList } from '../../features/results/use-report.ts';
import { apiGet } from '../../lib/api-client.ts';

const useLng = () => {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'fr';
};

/** Base of the report routes: /results/{eventId} or /events/{eventId} (spec §2 has both). */
function useReportBase(eventId: string) {
  return window.location.hash.startsWith('#/results/')
    ? `/results/${encodeURIComponent(eventId)}`
    : `/events/${encodeURIComponent(eventId)}`;
}

/** `reportlist`: the event's report groups and their reports. */
export function ReportListPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('results');
  const lng = useLng();
  const base = useReportBase(eventId);
  const list = useReportList(eventId);
  if (list.isPending) return <PageLoading />;
  if (list.isError) return <PageError error={list.error} />;
  const data: ReportList = list.data;
  return (
    <>
      <PageHeader
        title={t('reportList')}
        crumbs={[[data.event.name, paths.eventHome(eventId)], [t('reportList')]]}
        actions={
          data.event.status === 'live' ? (
            <Chip color="error" icon={<MdiIcon path={mdiBroadcast} />} label={t('live')} />
          ) : undefined
        }
      />
      {data.groups.length === 0 && <Typography color="text.secondary">{t('noReports')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
        {data.groups.map((group) => (
          <Card key={`${group.db}/${group.key}`} variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2">
                {group.name[lng]}
              </Typography>
              <List dense>
                {group.reports.map((report) => (
                  <ListItemButton
                    key={report.key}
                    component={RouterLink}
                    to={`${base}/reportlist/group/${encodeURIComponent(group.key)}/report/${encodeURIComponent(report.key)}`}
                  >
                    <ListItemText primary={report.name[lng]} secondary={report.key} />
                  </ListItemButton>
                ))}
              </List>
            </CardContent>
          </Card>
        ))}
      </Box>
    </>
  );
}

function LiveReport({ source, scope, chrome }: { source: ReportSource; scope: string; chrome: boolean }) {
  const { t } = useTranslation('results');
  const lng = useLng();
  const report = useLiveReport(source);
  const { favorites, toggle } = useFavorites(scope);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const rows = useMemo(
    () => (report.data ? searchRows(report.data.rows, report.data.keyField, deferred) : []),
    [report.data, deferred],
  );
  if (report.isPending) return <PageLoading />;
  if (report.isError) return <PageError error={report.error} />;
  const table = report.data;
  return (
    <>
      {chrome && (
        <PageHeader
          title={table.title[lng]}
          crumbs={
            'eventId' in source
              ? [
                  [source.eventId, paths.eventHome(source.eventId)],
                  [t('reportList'), paths.reportList(source.eventId)],
                  [table.title[lng]],
                ]
              : [[table.title[lng]]]
          }
        />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1, alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <MdiIcon path={mdiMagnify} fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ minWidth: 260 }}
        />
        <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
          {t('rowCount', { count: rows.length })}
        </Typography>
      </Stack>
      <ReportTable
        table={table}
        rows={rows}
        favorites={favorites}
        onToggleFavorite={toggle}
        changed={report.changed}
        height={chrome ? undefined : 'calc(100vh - 70px)'}
      />
    </>
  );
}

/** `reportlist/group/{group}/report/{report}`: one live report with its page chrome. */
export function ReportPage() {
  const { eventId = '', group = '', report = '' } = useParams();
  return (
    <LiveReport
      key={`${eventId}/${group}/${report}`}
      source={{ eventId, group, report }}
      scope={eventId}
      chrome
    />
  );
}

/** `reportlist/table/{group}/report/{report}`: the bare table, for embedding. */
export function ReportTablePage() {
  const { eventId = '', group = '', report = '' } = useParams();
  return (
    <LiveReport
      key={`${eventId}/${group}/${report}`}
      source={{ eventId, group, report }}
      scope={eventId}
      chrome={false}
    />
  );
}

/** `ctx/{db}/generic/{path}/home/{key}`: report `key` of context `db`. */
export function GenericReportPage() {
  const { eventId = '', db = '', key = '' } = useParams();
  return <LiveReport key={`${db}/${key}`} source={{ db, report: key }} scope={eventId} chrome />;
}

interface EventDetail {
  id: string;
  name: string;
  place: string;
  startDate: string;
  endDate: string;
  status: string;
  contexts: { db: string; name: string }[];
  races: { id: string; db: string; name: string; distanceM: number }[];
}

/** `/events/{eventId}/home`: the event's page with quick links (issue 8 adds branding, CMS, streams). */
export function EventHomePage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('results');
  const event = useQuery({
    queryKey: ['event', eventId],
    queryFn: ({ signal }) =>
      apiGet<EventDetail>('eventsApiUrlBase', `events/${encodeURIComponent(eventId)}`, { signal }),
  });
  if (event.isPending) return <PageLoading />;
  if (event.isError) return <PageError error={event.error} />;
  const e = event.data;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${e.startDate}T00:00:00Z`),
  );
  return (
    <>
      <PageHeader
        title={e.name}
        crumbs={[[e.name]]}
        actions={e.status === 'live' ? <Chip color="error" label={t('live')} /> : undefined}
      />
      <Typography sx={{ mb: 2 }} color="text.secondary">
        {date} · {e.place}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 3 }}>
        <Button variant="contained" component={RouterLink} to={paths.reportList(eventId)}>
          {t('results')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={paths.tracking(eventId)}>
          {t('tracking')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={`/events/${encodeURIComponent(eventId)}/map`}>
          {t('map')}
        </Button>
        <Button
          variant="outlined"
          component={RouterLink}
          to={`/events/${encodeURIComponent(eventId)}/favorites`}
        >
          {t('favorites')}
        </Button>
        <Button
          variant="outlined"
          component={RouterLink}
          to={`/events/${encodeURIComponent(eventId)}/contact`}
        >
          {t('contact')}
        </Button>
      </Stack>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('races')}
      </Typography>
      <List>
        {e.races.map((race) => (
          <ListItemButton key={race.id} component={RouterLink} to={paths.report(eventId, race.id, 'LIVE1')}>
            <ListItemText
              primary={race.name}
              secondary={`${(race.distanceM / 1000).toLocaleString(i18n.language)} km`}
            />
          </ListItemButton>
        ))}
      </List>
    </>
  );
}
