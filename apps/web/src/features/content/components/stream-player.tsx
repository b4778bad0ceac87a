import { Box } from '@mui/material';
import type { Stream } from '@tempora/contracts';
import { youtubeVideoId } from '@tempora/contracts/media';
import { useTranslation } from 'react-i18next';

/**
 * Plays a stream: YouTube through the privacy-enhanced youtube-nocookie.com embed (only from the
 * allowed hosts, the same list the server checks and the CSP frames), HLS in a <video> (native
 * HLS in Safari; elsewhere the link opens in a player).
 */
export function StreamPlayer({ stream }: { stream: Stream }) {
  const { t } = useTranslation('content');
  const frame = {
    position: 'relative',
    pt: '56.25%',
    bgcolor: 'common.black',
    borderRadius: 1,
    overflow: 'hidden',
  };
  const fill = { position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 };
  if (stream.kind === 'youtube') {
    const id = youtubeVideoId(stream.url);
    if (!id) return null;
    return (
      <Box sx={frame}>
        <Box
          component="iframe"
          sx={fill}
          src={`https://www.youtube-nocookie.com/embed/${id}?autoplay=1&mute=1`}
          title={stream.title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
        />
      </Box>
    );
  }
  return (
    <Box sx={frame}>
      <Box
        component="video"
        sx={fill}
        src={stream.url}
        controls
        autoPlay
        muted
        playsInline
        aria-label={stream.title}
      >
        <a href={stream.url}>{t('stream.open')}</a>
      </Box>
    </Box>
  );
}
