import { formatDuration, type Millis } from './time-format.ts';

// Tracking pages only: apart from time-format.ts, which every spectator page loads first (issue 41:
// the report page's JavaScript budget).
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A predicted finish's interval (issue 27, `Prediction.finishRange`), as `3:31–3:38`: to the
 * minute from an hour on (low down, high up, so the interval shown holds the one computed),
 * `m:ss` below. Empty when either end is missing.
 */
export function formatRange(lowMs: Millis | null | undefined, highMs: Millis | null | undefined): string {
  if (!(lowMs && highMs && lowMs > 0 && highMs >= lowMs)) return '';
  if (highMs < 3_600_000)
    return `${formatDuration(Math.floor(lowMs / 1000) * 1000)}–${formatDuration(Math.ceil(highMs / 1000) * 1000)}`;
  const hm = (minutes: number) => `${Math.floor(minutes / 60)}:${pad(minutes % 60)}`;
  return `${hm(Math.floor(lowMs / 60_000))}–${hm(Math.ceil(highMs / 60_000))}`;
}
