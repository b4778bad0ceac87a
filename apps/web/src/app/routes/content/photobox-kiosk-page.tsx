import { Box, Chip, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { Photo } from '@tempora/contracts';
import { joinTitle } from '@tempora/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError } from '../../../components/page-state.tsx';
import { useEvent } from '../../../features/content/api/events.ts';
import { photoSrc, usePhotos } from '../../../features/content/api/photos.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { useChannelEvent, useReconnectCatchUp } from '../../../lib/realtime/realtime-provider.tsx';

/** The photo box's words are a namespace of their own (out of every page's first JavaScript), looked up after the content namespace (`nsMode: 'fallback'`). */
const PHOTO_NS = ['content', 'photos'];

/** How many recent photos the kiosk cycles through, and how long each stays when nothing new comes. */
const RECENT = 24;
const CYCLE_MS = 6_000;

/**
 * `/photobox/{eventId}` (blank layout): the kiosk for a finish-line screen. A new photo
 * (`photo-added` on `photos-{eventId}`) takes the stage at once; between arrivals the screen
 * cycles through the most recent photos; a strip shows the newest ones. Dark, large, no chrome.
 */
export default function PhotoboxKioskPage() {
  const { t } = useTranslation(PHOTO_NS, { nsMode: 'fallback' });
  const { id = '' } = useParams();
  const client = useQueryClient();
  const event = useEvent(id);
  useDocumentTitle(joinTitle([event.data?.name, t('photos.kioskLive')]));
  const photos = usePhotos(id, '', RECENT);
  const [index, setIndex] = useState(0);
  const [fresh, setFresh] = useState<Photo | null>(null);

  useChannelEvent(`photos-${id}`, 'photo-added', (photo) => {
    setFresh(photo as Photo);
    setIndex(0);
    void client.invalidateQueries({ queryKey: ['content', 'photos', id] });
  });
  useReconnectCatchUp(() => void client.invalidateQueries({ queryKey: ['content', 'photos', id] }));

  const list = photos.data ?? [];
  useEffect(() => {
    if (list.length < 2) return;
    const timer = setInterval(() => {
      setFresh(null);
      setIndex((i) => (i + 1) % list.length);
    }, CYCLE_MS);
    return () => clearInterval(timer);
  }, [list.length]);

  const shown = fresh ?? list[index % Math.max(1, list.length)] ?? null;
  return (
    <Box
      sx={{
        bgcolor: '#111',
        color: '#fff',
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 3, py: 1.5, gap: 2 }}>
        <Typography component="h1" sx={{ fontSize: { xs: 20, md: 28 }, fontWeight: 700, flexGrow: 1 }}>
          {event.data?.name ?? t('photos.title')}
        </Typography>
        <Typography sx={{ fontSize: { xs: 14, md: 18 }, color: '#ccc' }}>{t('photos.kioskLive')}</Typography>
      </Box>
      {(photos.isError || event.isError) && (
        <Box sx={{ px: 3 }}>
          <PageError error={photos.error ?? event.error} />
        </Box>
      )}
      <Box
        sx={{
          flexGrow: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          px: 2,
          minHeight: 0,
        }}
      >
        {shown ? (
          <Box
            component="figure"
            sx={{ m: 0, textAlign: 'center' }}
            data-testid="kiosk-photo"
            data-photo={shown.id}
          >
            <Box
              component="img"
              src={photoSrc(shown.webUrl)}
              alt={shown.bibs.length ? t('photos.withBibs', { bibs: shown.bibs.join(', ') }) : shown.fileName}
              sx={{ maxWidth: '100%', maxHeight: 'calc(100vh - 220px)', display: 'block', mx: 'auto' }}
            />
            {shown.bibs.length > 0 && (
              <Box component="figcaption" sx={{ mt: 1.5, display: 'flex', gap: 1, justifyContent: 'center' }}>
                {shown.bibs.map((bib) => (
                  <Chip
                    key={bib}
                    label={bib}
                    sx={{ bgcolor: '#fff', color: '#111', fontSize: 22, fontWeight: 700, height: 40 }}
                  />
                ))}
              </Box>
            )}
          </Box>
        ) : (
          photos.isSuccess && (
            <Typography sx={{ fontSize: 28, color: '#ddd' }}>{t('photos.kioskWaiting')}</Typography>
          )
        )}
      </Box>
      {list.length > 1 && (
        <Box
          component="ul"
          aria-label={t('photos.newest')}
          sx={{ listStyle: 'none', m: 0, p: 1.5, display: 'flex', gap: 1, overflow: 'hidden', height: 110 }}
        >
          {list.slice(0, 12).map((photo) => (
            <Box component="li" key={photo.id} sx={{ flex: '0 0 auto' }}>
              <Box
                component="img"
                src={photoSrc(photo.thumbUrl)}
                alt=""
                sx={{
                  height: 86,
                  width: 115,
                  objectFit: 'cover',
                  display: 'block',
                  outline: photo.id === shown?.id ? '3px solid #ffd54f' : 'none',
                }}
              />
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
