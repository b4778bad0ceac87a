import { mdiMonitor } from '@mdi/js';
import { Alert, Box, Button, Card, CardActionArea, CardContent, Chip, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Photo } from '@tempora/contracts';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon.tsx';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { paths } from '../../../config/paths.ts';
import { eventsQuery, useEvent } from '../../../features/content/api/events.ts';
import { photoSrc, usePhotos } from '../../../features/content/api/photos.ts';
import { photoLabel } from '../../../features/content/photo-label.ts';
import { useCanManage } from '../../../features/content/use-can-manage.ts';
import { useChannelEvent, useReconnectCatchUp } from '../../../lib/realtime/realtime-provider.tsx';

/** The photo box's words are a namespace of their own (out of every page's first JavaScript), looked up after the content namespace (`nsMode: 'fallback'`). */
const PHOTO_NS = ['content', 'photos'];

const UploadPanel = lazy(() =>
  import('../../../features/content/components/photo-panels.tsx').then((m) => ({ default: m.UploadPanel })),
);
const PhotoDialog = lazy(() =>
  import('../../../features/content/components/photo-panels.tsx').then((m) => ({ default: m.PhotoDialog })),
);

/**
 * `/photobox?event={id}`: an event's photos, newest first, found by bib or name, live as staff
 * upload them (`photo-added` on `photos-{eventId}`). Without an event, the events to choose from.
 * Staff of the event's organisation get the upload panel and can tag bibs by hand.
 */
export default function PhotoboxPage() {
  const { t } = useTranslation(PHOTO_NS, { nsMode: 'fallback' });
  const [params, setParams] = useSearchParams();
  const eventId = params.get('event') ?? '';
  return (
    <>
      {eventId ? (
        <EventPhotos eventId={eventId} initialQuery={params.get('q') ?? ''} />
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
  const { t } = useTranslation(PHOTO_NS, { nsMode: 'fallback' });
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

/** `initialQuery` (`?q=`): a bib or name to search at once (the runner's "photos of my bib", issue 40). */
function EventPhotos({ eventId, initialQuery }: { eventId: string; initialQuery: string }) {
  const { t } = useTranslation(PHOTO_NS, { nsMode: 'fallback' });
  const client = useQueryClient();
  const event = useEvent(eventId);
  const [q, setQ] = useState(initialQuery);
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
        documentTitle={`${name} · ${t('photos.title')}`}
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
      {canUpload && (
        <Suspense fallback={null}>
          <UploadPanel eventId={eventId} onDone={refresh} />
        </Suspense>
      )}
      <SearchField
        value={q}
        onChange={setQ}
        label={t('photos.search')}
        placeholder={t('photos.searchHint')}
        sx={{ my: 2, maxWidth: 480 }}
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
        <Suspense fallback={null}>
          <PhotoDialog
            eventId={eventId}
            photo={open}
            canTag={canTag}
            timeZone={event.data?.timeZone}
            onClose={() => setOpen(null)}
            onSaved={(p) => {
              setOpen(p);
              refresh();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
