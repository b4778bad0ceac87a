/**
 * Media rules shared by server and client without zod (a public page importing them does not
 * download the API schemas): stream URLs and photo box limits.
 */

export const streamKinds = ['youtube', 'hls'] as const;
/** Hosts a YouTube stream may come from (the CSP frame-src allows the same). */
export const YOUTUBE_HOSTS = [
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
  'youtu.be',
] as const;

/** Whether `url` is an allowed stream URL for `kind` (https only; YouTube from its hosts). */
export function isAllowedStreamUrl(kind: (typeof streamKinds)[number], url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  if (kind === 'youtube') return (YOUTUBE_HOSTS as readonly string[]).includes(parsed.hostname);
  return /\.m3u8$/i.test(parsed.pathname);
}

/** The YouTube video id of an allowed URL (watch?v=, youtu.be/, /embed/, /live/), or null. */
export function youtubeVideoId(url: string): string | null {
  if (!isAllowedStreamUrl('youtube', url)) return null;
  const parsed = new URL(url);
  const candidate =
    parsed.hostname === 'youtu.be'
      ? parsed.pathname.slice(1)
      : (parsed.searchParams.get('v') ??
        parsed.pathname.match(/^\/(?:embed|live|shorts)\/([^/]+)/)?.[1] ??
        '');
  return /^[A-Za-z0-9_-]{6,20}$/.test(candidate) ? candidate : null;
}

/** Limits of the photo box. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const PHOTO_MAX_FILES = 50;
