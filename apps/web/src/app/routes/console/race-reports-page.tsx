import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { paths } from '../../../config/paths.ts';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import { orderReports, useConsoleRace, useRaceReports } from '../../../features/console/api/races.ts';
import { SaveError } from '../../../features/console/components/form-state.tsx';
import { ReportCreateForm } from '../../../features/console/components/report-create-form.tsx';
import { ReportEditor } from '../../../features/console/components/report-editor.tsx';
import { useOrgAbility } from '../../../features/console/use-org-ability.ts';

/** `/console/events/{eventId}/races/{raceId}/reports`: the race's report definitions (issue 14). */
export default function RaceReportsPage() {
  const { t } = useTranslation('console');
  const { eventId = '', raceId = '' } = useParams();
  const client = useQueryClient();
  const event = useConsoleEvent(eventId);
  const race = useConsoleRace(raceId);
  const reports = useRaceReports(raceId);
  const { can } = useOrgAbility(event.data?.organisationId ?? '');
  const order = useMutation({
    mutationFn: (keys: string[]) => orderReports(raceId, keys),
    onSuccess: (list) => client.setQueryData(['console', 'race', raceId, 'reports'], list),
  });
  if (reports.isPending || race.isPending || event.isPending) return <PageLoading />;
  if (reports.isError) return <PageError error={reports.error} />;
  if (race.isError) return <PageError error={race.error} />;
  const list = reports.data;
  const editable = can('update', 'Report');
  const move = (k: number, by: number) => {
    const keys = list.map((r) => r.key);
    const [key] = keys.splice(k, 1);
    keys.splice(k + by, 0, key!);
    order.mutate(keys);
  };
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {t('reports.titleOf', { race: race.data.name })}
        </Typography>
        <Button component={Link} to={consolePaths.race(eventId, raceId)}>
          {t('reports.backToRace')}
        </Button>
        {event.data?.visibility === 'public' && (
          <Button component={Link} to={paths.reportList(eventId)} variant="outlined">
            {t('reports.public')}
          </Button>
        )}
      </Box>
      <Typography color="text.secondary">{t('reports.help')}</Typography>
      {!editable && <Alert severity="info">{t('readOnly')}</Alert>}
      <SaveError error={order.error} />
      <Stack
        spacing={1.5}
        component="ol"
        sx={{ p: 0, m: 0, listStyle: 'none' }}
        aria-label={t('reports.title')}
      >
        {list.map((r, k) => (
          <li key={`${r.key}-${JSON.stringify(r)}`}>
            <ReportEditor
              raceId={raceId}
              report={r}
              editable={editable}
              first={k === 0}
              last={k === list.length - 1}
              onMove={(by) => move(k, by)}
            />
          </li>
        ))}
      </Stack>
      {can('create', 'Report') && <ReportCreateForm race={race.data} />}
    </Stack>
  );
}
