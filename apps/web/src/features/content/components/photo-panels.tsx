import { mdiCloudUploadOutline } from '@mdi/js';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import type { Photo, PhotoUploadResult } from '@tempora/contracts';
import { PHOTO_MAX_BYTES, PHOTO_MAX_FILES } from '@tempora/contracts/media';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDrop } from '../../../components/file-drop.tsx';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/money.ts';
import { patchPhoto, photoSrc, uploadPhotos } from '../api/photos.ts';
import { photoLabel } from '../photo-label.ts';

/** The photo box's words are a namespace of their own (out of every page's first JavaScript), looked up after the content namespace (`nsMode: 'fallback'`). */
const PHOTO_NS = ['content', 'photos'];

/*
 * The photo page's staff upload panel and photo dialog, loaded when shown (issue 19: their text
 * fields and dialog are most of the page's JavaScript; the grid of photos needs none of it).
 */

const ACCEPT = 'image/jpeg,image/png,image/webp';

/** Staff: many files at once, a progress bar, what was refused and why. */
export function UploadPanel({ eventId, onDone }: { eventId: string; onDone: () => void }) {
  const { t } = useTranslation(PHOTO_NS, { nsMode: 'fallback' });
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
  const pick = (all: File[]) => {
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
        <FileDrop
          label={t('photos.choose')}
          multiple
          accept={ACCEPT}
          buttonProps={{
            startIcon: <MdiIcon path={mdiCloudUploadOutline} aria-hidden />,
            sx: { flexGrow: { xs: 1, sm: 0 } },
          }}
          onFiles={pick}
        />
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

export function PhotoDialog({
  eventId,
  photo,
  canTag,
  onClose,
  onSaved,
  timeZone,
}: {
  eventId: string;
  photo: Photo;
  canTag: boolean;
  /** The event's zone: when the photo was taken, on the event's clock (issue 27). */
  timeZone?: string | undefined;
  onClose: () => void;
  onSaved: (photo: Photo) => void;
}) {
  const { t, i18n } = useTranslation(PHOTO_NS, { nsMode: 'fallback' });
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
  const taken = photo.takenAt ? formatDateTime(photo.takenAt, i18n.language, timeZone) : null;
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
