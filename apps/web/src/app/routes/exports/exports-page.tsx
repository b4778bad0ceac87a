import {
  Alert,
  FormControlLabel,
  Link,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useExportAccess, useSaveExportSettings } from '../../../features/exports/api/exports.ts';
import { useEventDetail } from '../../../features/live/api.ts';
import { apiUrl } from '../../../lib/api-client.ts';

const FEEDS = ['finishers', 'leaders', 'hotseat'] as const;

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
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={t('feeds.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('feeds.race')}</TableCell>
              {FEEDS.map((f) => (
                <TableCell key={f}>{t(`feeds.${f}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {(event.data?.races ?? []).map((race) => (
              <TableRow key={race.id}>
                <TableCell>{race.name}</TableCell>
                {FEEDS.map((f) => {
                  const url = apiUrl(
                    'apiUrlBase',
                    `feeds/${encodeURIComponent(race.db)}/races/${encodeURIComponent(race.id)}/${f}`,
                  );
                  const absolute = new URL(url, window.location.href).toString();
                  return (
                    <TableCell key={f}>
                      <Link
                        href={absolute}
                        target="_blank"
                        rel="noopener"
                        sx={{ wordBreak: 'break-all', fontSize: 13 }}
                      >
                        {absolute}
                      </Link>
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      <Stack sx={{ mt: 1 }}>
        <Typography variant="caption" color="text.secondary">
          {t('feeds.cache')}
        </Typography>
      </Stack>
    </>
  );
}
