/** Milliseconds, the unit of every time in the domain (product.md "Passing": ms, UTC). */
export type Millis = number & { readonly __unit?: 'ms' };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a duration for a time cell (spec §5): blank when zero, `s` under a minute, `m:ss` under
 * an hour, else `h:mm:ss`. `decimals` (0–3, from a column's Settings) adds tenths to thousandths,
 * truncated, as timing results are never rounded up.
 */
export function formatDuration(ms: Millis | null | undefined, decimals = 0): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms === 0) return '';
  const negative = ms < 0;
  const abs = Math.abs(ms);
  const d = Math.max(0, Math.min(3, Math.trunc(decimals)));
  const totalSeconds = Math.floor(abs / 1000);
  const fraction =
    d > 0
      ? `.${String(Math.floor(abs % 1000))
          .padStart(3, '0')
          .slice(0, d)}`
      : '';
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const body = h > 0 ? `${h}:${pad(m)}:${pad(s)}` : m > 0 ? `${m}:${pad(s)}` : `${s}`;
  return `${negative ? '-' : ''}${body}${fraction}`;
}
