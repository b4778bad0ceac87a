import type { Stream } from '@tempora/contracts';
import type { StreamRow } from './repository.ts';

/**
 * The streams with `current` flagged: the one on air at `now` (the latest started when several
 * overlap), else the next one to start, else the last one that ended (a replay).
 */
export function flagCurrent(rows: StreamRow[], now: number): Stream[] {
  const streams = rows.map((r) => ({
    id: r.id,
    title: r.title,
    kind: r.kind,
    url: r.url,
    startsAt: new Date(r.startsAt).toISOString(),
    endsAt: new Date(r.endsAt).toISOString(),
    current: false,
  }));
  const start = (s: Stream) => Date.parse(s.startsAt);
  const end = (s: Stream) => Date.parse(s.endsAt);
  const onAir = streams.filter((s) => start(s) <= now && now < end(s)).sort((a, b) => start(b) - start(a));
  const next = streams.filter((s) => start(s) > now).sort((a, b) => start(a) - start(b));
  const past = streams.filter((s) => end(s) <= now).sort((a, b) => end(b) - end(a));
  const current = onAir[0] ?? next[0] ?? past[0];
  if (current) current.current = true;
  return streams;
}
