import { Alert, FormControlLabel, Link, Paper, Stack, Switch, Typography } from '@mui/material';
import type { EventDetail } from '@tempora/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useExportAccess, useSaveExportSettings } from '../../../features/exports/api/exports.ts';
import { useEventDetail } from '../../../features/live/api.ts';
import { apiUrl } from '../../../lib/api-client.ts';

const FEEDS = ['finishers', 'leaders', 'hotseat'] as const;

/** A race's name, then the absolute address of each of its feeds as a link. */
const feedColumns = (t: TFunction<'exports'>): DataTableColumn<EventDetail['races'][number]>[] => [
  { key: 'race', header: t('feeds.race'), cell: (race) => race.name },
  ...FEEDS.map(
    (f): DataTableColumn<EventDetail['races'][number]> => ({
      key: f,
      header: t(`feeds.${f}`),
      cell: (race) => {
        const url = apiUrl(
          'apiUrlBase',
          `feeds/${encodeURIComponent(race.db)}/races/${encodeURIComponent(race.id)}/${f}`,
        );
        const absolute = new URL(url, window.location.href).toString();
        return (
          <Link href={absolute} target="_blank" rel="noopener" sx={{ wordBreak: 'break-all', fontSize: 13 }}>
            {absolute}
          </Link>
        );
      },
    }),
  ),
];

/**
 * `/console/events/{eventId}/exports`: whether spectators may download the reports, and the
 * broadcast feed addresses of every race (for vMix data sources and similar, README "TV feeds").
 */
export default function ExportsPage() {
  const { eventId = '' } = useParams();
  const { t } = useTranslation('exports');
  const access = useExportAccess(eventId);
  const save = useSaveExportSettings(eventId);
  const event = useEventDetail(eventId);
  return (
    <>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('settings.title')}
      </Typography>
      {access.isPending && <PageLoading />}
      {access.isError && <PageError error={access.error} />}
      {access.data && !access.data.organiser && (
        <Alert severity="warning">{t('settings.notOrganiser')}</Alert>
      )}
      {access.data?.organiser && (
        <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
          <FormControlLabel
            control={
              <Switch
                checked={access.data.spectatorExports}
                onChange={(e) => save.mutate({ spectatorExports: e.target.checked })}
                disabled={save.isPending}
              />
            }
            label={t('settings.spectators')}
          />
          <Typography variant="body2" color="text.secondary">
            {t('settings.spectatorsHelp')}
          </Typography>
          {save.isError && <Alert severity="error">{t('settings.saveFailed')}</Alert>}
        </Paper>
      )}
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        {t('feeds.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('feeds.help')}
      </Typography>
      <Paper variant="outlined">
        <DataTable
          label={t('feeds.title')}
          columns={feedColumns(t)}
          rows={event.data?.races ?? []}
          getRowKey={(race) => race.id}
        />
      </Paper>
      <Stack sx={{ mt: 1 }}>
        <Typography variant="caption" color="text.secondary">
          {t('feeds.cache')}
        </Typography>
      </Stack>
    </>
  );
}
