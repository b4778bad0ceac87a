import { mdiDeleteOutline, mdiPencilOutline } from '@mdi/js';
import {
  Alert,
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { Stream } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEvent } from '../../../features/content/api/events.ts';
import { streamsApi, streamsQuery, useStreams } from '../../../features/content/api/streams.ts';
import { RecordEditor } from '../../../features/content/components/lazy-editors.tsx';
import { fromLocalInput, toLocalInput } from '../../../features/content/components/local-datetime.ts';
import { StreamPlayer } from '../../../features/content/components/stream-player.tsx';
import { useCanManage } from '../../../features/content/use-can-manage.ts';
import { formatDateTime } from '../../../lib/money.ts';

/**
 * `/events/{eventId}/ctx/{db}/generic/{path}/streaming` and `/results/{eventId}/youtube`: the
 * current stream embedded, with the schedule beside it. Organisers add, change and remove streams
 * (YouTube from the allowed hosts, or an https HLS playlist; the server checks the same).
 */
export default function StreamingPage() {
  const { eventId = '' } = useParams();
  const { t, i18n } = useTranslation('content');
  const client = useQueryClient();
  const event = useEvent(eventId);
  const streams = useStreams(eventId);
  const canEdit = useCanManage('Stream', event.data?.organisationId);
  const [editing, setEditing] = useState<Stream | 'new' | null>(null);
  // In the event's zone, whatever the browser's (issue 27), named (issue 43: the one formatter).
  const zone = event.data?.timeZone;
  const when = (iso: string) => formatDateTime(iso, i18n.language, zone);
  const current = streams.data?.find((s) => s.current);
  const onAir =
    current && Date.parse(current.startsAt) <= Date.now() && Date.now() < Date.parse(current.endsAt);
  const refresh = () => client.invalidateQueries({ queryKey: streamsQuery(eventId).queryKey });
  const remove = async (s: Stream) => {
    if (!window.confirm(t('stream.confirmDelete', { title: s.title }))) return;
    await streamsApi.remove(eventId, s.id);
    await refresh();
  };
  const schedule = streams.data?.length ? (
    <Paper variant="outlined">
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 1.5, fontSize: 16 }}>
        {t('stream.schedule')}
      </Typography>
      <List dense>
        {streams.data.map((s) => (
          <ListItem
            key={s.id}
            aria-current={s.current ? 'true' : undefined}
            sx={s.current ? { bgcolor: 'action.selected' } : undefined}
            secondaryAction={
              canEdit && (
                <>
                  <IconButton aria-label={t('stream.edit', { title: s.title })} onClick={() => setEditing(s)}>
                    <MdiIcon path={mdiPencilOutline} fontSize="small" />
                  </IconButton>
                  <IconButton
                    aria-label={t('stream.delete', { title: s.title })}
                    onClick={() => void remove(s)}
                  >
                    <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                  </IconButton>
                </>
              )
            }
          >
            <ListItemText
              primary={s.title}
              secondary={`${when(s.startsAt)} – ${when(s.endsAt)}`}
              sx={canEdit ? { pr: 9 } : undefined}
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  ) : null;
  return (
    <>
      <PageHeader
        title={current?.title ?? t('stream.title')}
        documentTitle={`${event.data?.name ?? eventId} · ${current?.title ?? t('stream.title')}`}
        crumbs={[[event.data?.name ?? eventId, paths.eventHome(eventId)], [t('stream.title')]]}
        actions={
          canEdit && (
            <Button variant="contained" onClick={() => setEditing('new')}>
              {t('stream.add')}
            </Button>
          )
        }
      />
      {streams.isPending && <PageLoading />}
      {streams.isError && <PageError error={streams.error} />}
      {streams.data && !current && <Alert severity="info">{t('stream.none')}</Alert>}
      {current ? (
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
                {t('stream.notLive', { start: when(current.startsAt) })}
              </Alert>
            )}
            <StreamPlayer stream={current} />
          </Box>
          {schedule}
        </Box>
      ) : (
        schedule
      )}
      {editing && (
        <RecordEditor
          title={editing === 'new' ? t('stream.add') : t('stream.edit', { title: editing.title })}
          fields={[
            { name: 'title', label: t('stream.fields.title'), required: true },
            {
              name: 'kind',
              label: t('stream.fields.kind'),
              type: 'select',
              options: [
                { value: 'youtube', label: 'YouTube' },
                { value: 'hls', label: 'HLS (.m3u8)' },
              ],
            },
            {
              name: 'url',
              label: t('stream.fields.url'),
              type: 'url',
              required: true,
              helperText: t('stream.fields.urlHelp'),
            },
            { name: 'startsAt', label: t('stream.fields.startsAt'), type: 'datetime-local', required: true },
            { name: 'endsAt', label: t('stream.fields.endsAt'), type: 'datetime-local', required: true },
          ]}
          initial={
            editing === 'new'
              ? { title: '', kind: 'youtube', url: '', startsAt: '', endsAt: '' }
              : {
                  title: editing.title,
                  kind: editing.kind,
                  url: editing.url,
                  startsAt: toLocalInput(editing.startsAt),
                  endsAt: toLocalInput(editing.endsAt),
                }
          }
          save={(v) => {
            const input = {
              title: v.title ?? '',
              kind: (v.kind === 'hls' ? 'hls' : 'youtube') as Stream['kind'],
              url: v.url ?? '',
              startsAt: fromLocalInput(v.startsAt ?? ''),
              endsAt: fromLocalInput(v.endsAt ?? ''),
            };
            return editing === 'new'
              ? streamsApi.create(eventId, input)
              : streamsApi.update(eventId, editing.id, input);
          }}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
    </>
  );
}
