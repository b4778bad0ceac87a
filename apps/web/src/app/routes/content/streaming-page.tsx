import { Alert, Box, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { useStreams } from '../../../features/content/api/streams.ts';
import { StreamPlayer } from '../../../features/content/components/stream-player.tsx';

/**
 * `/events/{eventId}/ctx/{db}/generic/{path}/streaming` and `/results/{eventId}/youtube`: the
 * current stream embedded, with the schedule beside it.
 */
export default function StreamingPage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('content');
  const event = useEvent(eventId);
  const streams = useStreams(eventId);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const current = streams.data?.find((s) => s.current);
  const onAir =
    current && Date.parse(current.startsAt) <= Date.now() && Date.now() < Date.parse(current.endsAt);
  return (
    <>
      <PageHeader
        title={current?.title ?? t('stream.title')}
        crumbs={[[event.data?.name ?? eventId, paths.eventHome(eventId)], [t('stream.title')]]}
      />
      {streams.isPending && <PageLoading />}
      {streams.isError && <PageError error={streams.error} />}
      {streams.data && !current && <Alert severity="info">{t('stream.none')}</Alert>}
      {current && (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', lg: '1fr 320px' },
            alignItems: 'start',
          }}
        >
          <Box>
            {!onAir && (
              <Alert severity="info" sx={{ mb: 1 }}>
                {t('stream.notLive', { start: time.format(new Date(current.startsAt)) })}
              </Alert>
            )}
            <StreamPlayer stream={current} />
          </Box>
          <Paper variant="outlined">
            <Typography variant="h6" component="h2" sx={{ px: 2, pt: 1.5, fontSize: 16 }}>
              {t('stream.schedule')}
            </Typography>
            <List dense>
              {streams.data?.map((s) => (
                <ListItem
                  key={s.id}
                  aria-current={s.current ? 'true' : undefined}
                  sx={s.current ? { bgcolor: 'action.selected' } : undefined}
                >
                  <ListItemText
                    primary={s.title}
                    secondary={`${time.format(new Date(s.startsAt))} – ${time.format(new Date(s.endsAt))}`}
                  />
                </ListItem>
              ))}
            </List>
          </Paper>
        </Box>
      )}
    </>
  );
}
