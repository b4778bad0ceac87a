import { mdiCloudUploadOutline, mdiMagnify, mdiMonitor } from '@mdi/js';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  LinearProgress,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Photo, PhotoUploadResult } from '@tempora/contracts';
import { PHOTO_MAX_BYTES, PHOTO_MAX_FILES } from '@tempora/contracts/media';
import type { TFunction } from 'i18next';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { eventsQuery, useEvent } from '../../../features/content/api/events.ts';
import { patchPhoto, photoSrc, uploadPhotos, usePhotos } from '../../../features/content/api/photos.ts';
import { useCanManage } from '../../../features/content/use-can-manage.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useChannelEvent, useReconnectCatchUp } from '../../../lib/realtime/realtime-provider.tsx';

const ACCEPT = 'image/jpeg,image/png,image/webp';

/**
 * `/photobox?event={id}`: an event's photos, newest first, found by bib or name, live as staff
 * upload them (`photo-added` on `photos-{eventId}`). Without an event, the events to choose from.
 * Staff of the event's organisation get the upload panel and can tag bibs by hand.
 */
export default function PhotoboxPage() {
  const { t } = useTranslation('content');
  const [params, setParams] = useSearchParams();
  const eventId = params.get('event') ?? '';
  return (
    <>
      {eventId ? (
        <EventPhotos eventId={eventId} />
      ) : (
        <>
          <PageHeader title={t('photos.title')} crumbs={[[t('photos.title')]]} />
          <EventPicker onPick={(id) => setParams({ event: id })} />
        </>
      )}
    </>
  );
}

function EventPicker({ onPick }: { onPick: (id: string) => void }) {
  const { t } = useTranslation('content');
  const events = useQuery(eventsQuery(''));
  if (events.isPending) return <PageLoading />;
  if (events.isError) return <PageError error={events.error} />;
  return (
    <>
      <Typography sx={{ mb: 2 }}>{t('photos.pickEvent')}</Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
        }}
      >
        {events.data.map((e) => (
          <Card key={e.id} variant="outlined">
            <CardActionArea onClick={() => onPick(e.id)}>
              <CardContent>
                <Typography sx={{ fontWeight: 600 }}>{e.name}</Typography>
                <Typography color="text.secondary" sx={{ fontSize: 14 }}>
                  {e.place} · {e.startDate}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </>
  );
}

function EventPhotos({ eventId }: { eventId: string }) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const event = useEvent(eventId);
  const [q, setQ] = useState('');
  const query = useDeferredValue(q.trim());
  const photos = usePhotos(eventId, query);
  const [open, setOpen] = useState<Photo | null>(null);
  const canUpload = useCanManage('Photo', event.data?.organisationId, 'create');
  const canTag = useCanManage('Photo', event.data?.organisationId, 'update');
  const refresh = () => void client.invalidateQueries({ queryKey: ['content', 'photos', eventId] });
  useChannelEvent(`photos-${eventId}`, 'photo-added', refresh);
  useReconnectCatchUp(refresh);
  const name = event.data?.name ?? eventId;
  return (
    <>
      <PageHeader
        title={t('photos.title')}
        crumbs={[[name, paths.eventHome(eventId)], [t('photos.title')]]}
        actions={
          <Button
            component={RouterLink}
            to={paths.photobox(eventId)}
            variant="outlined"
            startIcon={<MdiIcon path={mdiMonitor} aria-hidden />}
          >
            {t('photos.kiosk')}
          </Button>
        }
      />
      {event.isError && <PageError error={event.error} />}
      {canUpload && <UploadPanel eventId={eventId} onDone={refresh} />}
      <TextField
        value={q}
        onChange={(e) => setQ(e.target.value)}
        label={t('photos.search')}
        helperText={t('photos.searchHint')}
        fullWidth
        sx={{ my: 2, maxWidth: 480 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <MdiIcon path={mdiMagnify} aria-hidden />
              </InputAdornment>
            ),
          },
        }}
      />
      {photos.isPending && <PageLoading />}
      {photos.isError && <PageError error={photos.error} />}
      {photos.data && photos.data.length === 0 && (
        <Alert severity="info">{query ? t('photos.noMatch') : t('photos.none')}</Alert>
      )}
      {photos.data && photos.data.length > 0 && (
        <Box
          component="ul"
          aria-label={t('photos.title')}
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: 1.5,
            gridTemplateColumns: {
              xs: 'repeat(2, 1fr)',
              sm: 'repeat(3, 1fr)',
              md: 'repeat(4, 1fr)',
              lg: 'repeat(5, 1fr)',
            },
          }}
        >
          {photos.data.map((photo) => (
            <li key={photo.id} data-testid="photo">
              <Card variant="outlined">
                <CardActionArea onClick={() => setOpen(photo)} aria-label={photoLabel(t, photo)}>
                  <Box
                    component="img"
                    src={photoSrc(photo.thumbUrl)}
                    alt={photoLabel(t, photo)}
                    loading="lazy"
                    sx={{
                      display: 'block',
                      width: '100%',
                      aspectRatio: '4 / 3',
                      objectFit: 'cover',
                      bgcolor: 'grey.200',
                    }}
                  />
                  <Box sx={{ p: 1, display: 'flex', flexWrap: 'wrap', gap: 0.5, minHeight: 40 }}>
                    {photo.bibs.map((bib) => (
                      <Chip key={bib} size="small" label={bib} />
                    ))}
                  </Box>
                </CardActionArea>
              </Card>
            </li>
          ))}
        </Box>
      )}
      {open && (
        <PhotoDialog
          eventId={eventId}
          photo={open}
          canTag={canTag}
          onClose={() => setOpen(null)}
          onSaved={(p) => {
            setOpen(p);
            refresh();
          }}
        />
      )}
    </>
  );
}

function photoLabel(t: TFunction<'content'>, photo: Photo) {
  return photo.bibs.length
    ? t('photos.withBibs', { bibs: photo.bibs.join(', ') })
    : photo.caption || photo.fileName;
}

/** Staff: many files at once, a progress bar, what was refused and why. */
function UploadPanel({ eventId, onDone }: { eventId: string; onDone: () => void }) {
  const { t } = useTranslation('content');
  const [files, setFiles] = useState<File[]>([]);
  const [bibs, setBibs] = useState('');
  const [progress, setProgress] = useState(0);
  const [tooBig, setTooBig] = useState<string[]>([]);
  const upload = useMutation({
    mutationFn: () => uploadPhotos(eventId, files, bibs, setProgress),
    onSuccess: () => {
      setFiles([]);
      onDone();
    },
  });
  const pick = (list: FileList | null) => {
    const all = [...(list ?? [])];
    setTooBig(all.filter((f) => f.size > PHOTO_MAX_BYTES).map((f) => f.name));
    setFiles(all.filter((f) => f.size <= PHOTO_MAX_BYTES).slice(0, PHOTO_MAX_FILES));
    setProgress(0);
    upload.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (files.length) upload.mutate();
  };
  const result: PhotoUploadResult | undefined = upload.data;
  const failure = upload.error instanceof ApiError ? upload.error : null;
  return (
    <Paper
      variant="outlined"
      component="form"
      onSubmit={submit}
      sx={{ p: 2, mb: 2 }}
      aria-labelledby="upload-title"
    >
      <Typography id="upload-title" variant="h6" component="h2" sx={{ fontSize: 17, mb: 1 }}>
        {t('photos.upload')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          component="label"
          variant="outlined"
          startIcon={<MdiIcon path={mdiCloudUploadOutline} aria-hidden />}
        >
          {t('photos.choose')}
          <input
            hidden
            type="file"
            multiple
            accept={ACCEPT}
            aria-label={t('photos.choose')}
            onChange={(e) => pick(e.target.files)}
          />
        </Button>
        <TextField
          size="small"
          label={t('photos.bibs')}
          helperText={t('photos.bibsHint')}
          value={bibs}
          onChange={(e) => setBibs(e.target.value)}
          sx={{ flexGrow: 1 }}
        />
        <Button type="submit" variant="contained" disabled={!files.length || upload.isPending}>
          {t('photos.send', { count: files.length })}
        </Button>
      </Stack>
      <Typography sx={{ mt: 1, fontSize: 14 }} color="text.secondary">
        {files.length
          ? t('photos.chosen', { count: files.length })
          : t('photos.limits', { files: PHOTO_MAX_FILES, mb: PHOTO_MAX_BYTES / 1024 / 1024 })}
      </Typography>
      {tooBig.length > 0 && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {t('photos.tooBig', { names: tooBig.join(', ') })}
        </Alert>
      )}
      {upload.isPending && (
        <LinearProgress
          variant="determinate"
          value={Math.round(progress * 100)}
          aria-label={t('photos.progress')}
          sx={{ mt: 2, height: 8, borderRadius: 1 }}
        />
      )}
      {result && (
        <Alert severity={result.rejected.length ? 'warning' : 'success'} role="status" sx={{ mt: 2 }}>
          {t('photos.uploaded', { count: result.photos.length })}
          {result.rejected.map((r) => (
            <div key={r.fileName}>
              {r.fileName}: {t(`photos.rejected.${r.code}`, { defaultValue: r.code })}
            </div>
          ))}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure.status === 400
            ? Object.entries(failure.fieldErrors).map(([file, code]) => (
                <div key={file}>
                  {file}: {t(`photos.rejected.${code}`, { defaultValue: code })}
                </div>
              ))
            : t('form.failed')}
        </Alert>
      )}
    </Paper>
  );
}

function PhotoDialog({
  eventId,
  photo,
  canTag,
  onClose,
  onSaved,
}: {
  eventId: string;
  photo: Photo;
  canTag: boolean;
  onClose: () => void;
  onSaved: (photo: Photo) => void;
}) {
  const { t, i18n } = useTranslation('content');
  const [bibs, setBibs] = useState(photo.bibs.join(', '));
  const save = useMutation({
    mutationFn: () =>
      patchPhoto(eventId, photo.id, {
        bibs: bibs
          .split(/[\s,;]+/)
          .map((b) => b.trim())
          .filter(Boolean),
      }),
    onSuccess: onSaved,
  });
  const taken = photo.takenAt ? new Date(photo.takenAt).toLocaleString(i18n.language) : null;
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="photo-title">
      <DialogTitle id="photo-title">{photoLabel(t, photo)}</DialogTitle>
      <DialogContent>
        <Box
          component="img"
          src={photoSrc(photo.webUrl)}
          alt={photoLabel(t, photo)}
          sx={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', mx: 'auto' }}
        />
        {taken && (
          <Typography color="text.secondary" sx={{ mt: 1, fontSize: 14 }}>
            {t('photos.takenAt', { time: taken })}
          </Typography>
        )}
        {canTag && (
          <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
            <TextField
              size="small"
              label={t('photos.bibs')}
              value={bibs}
              onChange={(e) => setBibs(e.target.value)}
              error={save.isError}
              helperText={save.isError ? t('form.failed') : t('photos.bibsHint')}
              sx={{ flexGrow: 1 }}
            />
            <Button variant="contained" onClick={() => save.mutate()} disabled={save.isPending}>
              {t('form.save')}
            </Button>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button component="a" href={photoSrc(photo.webUrl)} download={photo.fileName}>
          {t('photos.download')}
        </Button>
        <Button onClick={onClose}>{t('photos.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
