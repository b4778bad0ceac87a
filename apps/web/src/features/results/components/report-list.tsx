import { mdiBroadcast, mdiChevronRight } from '@mdi/js';
import {
  Box,
  Card,
  CardContent,
  Chip,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useReportList } from '../api/get-report-list.ts';

/** What the report list needs: the event, and the route base (`/results/{id}` or `/events/{id}`). */
export interface ReportListProps {
  eventId: string;
  base: string;
  crumbs?: [string, string?][];
}

/** An event's report groups, each with links to its reports (issue 6 `reportlist`). */
export function ReportList({ eventId, base, crumbs = [] }: ReportListProps) {
  const { t, i18n } = useTranslation('results');
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  const list = useReportList(eventId);
  if (list.isPending) return <PageLoading />;
  if (list.isError) return <PageError error={list.error} />;
  const { event, groups } = list.data;
  const enc = encodeURIComponent;
  return (
    <>
      <PageHeader
        title={`${event.name} — ${t('reportList')}`}
        // Issue 43: the breadcrumbs keep the event ("Home / Results" lost it).
        crumbs={[[event.name, paths.eventHome(eventId)], ...crumbs, [t('reportList')]]}
        actions={
          event.status === 'live' ? (
            <Chip color="error" size="small" icon={<MdiIcon path={mdiBroadcast} />} label={t('live')} />
          ) : undefined
        }
      />
      {groups.length === 0 && <Typography color="text.secondary">{t('noReports')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
        {groups.map((group) => (
          <Card key={`${group.db}/${group.key}`} variant="outlined" component="section">
            <CardContent sx={{ pb: 1 }}>
              <Typography variant="h6" component="h2">
                {group.name[lng]}
              </Typography>
              <List dense disablePadding>
                {group.reports.map((report) => (
                  <ListItem key={report.key} disablePadding>
                    <ListItemButton
                      component={RouterLink}
                      to={`${base}/reportlist/group/${enc(group.key)}/report/${enc(report.key)}`}
                      sx={{ borderRadius: 1 }}
                    >
                      <ListItemText primary={report.name[lng]} />
                      <MdiIcon path={mdiChevronRight} fontSize="small" color="action" />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        ))}
      </Box>
    </>
  );
}
