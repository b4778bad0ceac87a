import { Alert, Box, Button, Checkbox, FormControlLabel, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportDefinitionView } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { consolePaths } from '../../../config/console-paths.ts';
import { paths } from '../../../config/paths.ts';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import {
  orderReports,
  setReportsVisibility,
  useConsoleRace,
  useRaceReports,
} from '../../../features/console/api/races.ts';
import { announceSaved, SaveError } from '../../../features/console/components/form-state.tsx';
import { ReportCreateForm } from '../../../features/console/components/report-create-form.tsx';
import { ReportEditor } from '../../../features/console/components/report-editor.tsx';
import { groupReports } from '../../../features/console/components/report-groups.ts';
import { useOrgAbility } from '../../../features/console/use-org-ability.ts';

/**
 * `/console/events/{eventId}/races/{raceId}/reports`: the race's report definitions (issue 14),
 * grouped (made with the race, per category, added), each named in words with its key as
 * secondary text; several reports or a whole group are shown or hidden in one request (issue 29).
 */
export default function RaceReportsPage() {
  const { t } = useTranslation('console');
  const { eventId = '', raceId = '' } = useParams();
  const client = useQueryClient();
  const event = useConsoleEvent(eventId);
  const race = useConsoleRace(raceId);
  const reports = useRaceReports(raceId);
  const { can } = useOrgAbility(event.data?.organisationId ?? '');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const queryKey = ['console', 'race', raceId, 'reports'];
  const order = useMutation({
    mutationFn: (keys: string[]) => orderReports(raceId, keys),
    onSuccess: (list) => client.setQueryData(queryKey, list),
  });
  const visibility = useMutation({
    mutationFn: (hidden: boolean) => setReportsVisibility(raceId, { keys: [...selected], hidden }),
    onSuccess: (list) => {
      announceSaved();
      setSelected(new Set());
      client.setQueryData(queryKey, list);
    },
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
  const toggle = (keys: readonly string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const key of keys) {
        if (on) next.add(key);
        else next.delete(key);
      }
      return next;
    });
  const groups = groupReports(list);
  const row = (r: ReportDefinitionView) => {
    const k = list.indexOf(r);
    return (
      <li key={`${r.key}-${JSON.stringify(r)}`}>
        <ReportEditor
          raceId={raceId}
          report={r}
          editable={editable}
          first={k === 0}
          last={k === list.length - 1}
          onMove={(by) => move(k, by)}
          selected={editable ? selected.has(r.key) : undefined}
          onSelect={(on) => toggle([r.key], on)}
        />
      </li>
    );
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
      {editable && (
        <Paper
          variant="outlined"
          role="toolbar"
          aria-label={t('reports.bulk.label')}
          sx={{
            position: 'sticky',
            top: 0,
            zIndex: 2,
            p: 1,
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            gap: 1,
          }}
        >
          <Typography sx={{ flexGrow: 1 }} aria-live="polite">
            {t('reports.bulk.selected', { count: selected.size })}
          </Typography>
          <Button
            variant="contained"
            disabled={selected.size === 0 || visibility.isPending}
            onClick={() => visibility.mutate(false)}
          >
            {t('reports.bulk.show')}
          </Button>
          <Button
            variant="outlined"
            disabled={selected.size === 0 || visibility.isPending}
            onClick={() => visibility.mutate(true)}
          >
            {t('reports.bulk.hide')}
          </Button>
          <Button disabled={selected.size === 0} onClick={() => setSelected(new Set())}>
            {t('reports.bulk.clear')}
          </Button>
        </Paper>
      )}
      <SaveError error={order.error ?? visibility.error} />
      {groups.map((group) => {
        const keys = group.reports.map((r) => r.key);
        const chosen = keys.filter((k) => selected.has(k)).length;
        const shown = group.reports.filter((r) => !r.hidden).length;
        const titleId = `reports-group-${group.id}`;
        return (
          <Box component="section" key={group.id} aria-labelledby={titleId}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, mb: 1 }}>
              <Typography variant="h6" component="h3" id={titleId} sx={{ flexGrow: 1, fontSize: 18 }}>
                {t(`reports.groups.${group.id}`)}{' '}
                <Typography component="span" color="text.secondary">
                  {t('reports.groupShown', { shown, count: keys.length })}
                </Typography>
              </Typography>
              {editable && (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={chosen === keys.length}
                      indeterminate={chosen > 0 && chosen < keys.length}
                      onChange={(e) => toggle(keys, e.target.checked)}
                    />
                  }
                  label={t('reports.bulk.selectGroup', { group: t(`reports.groups.${group.id}`) })}
                />
              )}
            </Box>
            <Stack
              spacing={1.5}
              component="ol"
              sx={{ p: 0, m: 0, listStyle: 'none' }}
              aria-label={`${t('reports.title')}: ${t(`reports.groups.${group.id}`)}`}
            >
              {group.reports.map(row)}
            </Stack>
          </Box>
        );
      })}
      {can('create', 'Report') && <ReportCreateForm race={race.data} />}
    </Stack>
  );
}
