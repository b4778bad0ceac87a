/**
 * MYLAPS Timing & Scoring TCP/IP protocol (the MYLAPS software connects to the timing system and
 * pushes), from MYLAPS' "T&S TCP-IP V2 protocol documentation" as published with
 * `racemap/2-racemap-forwarder` (docs and src/main/mylaps). Messages are `@`-separated and end
 * with `$` (a line break may follow): `<location>@<function>@<data>…@$`.
 * - `Loc@Passing@<passing>@<passing>…@<n>@$`, each passing `k=v|k=v…` with `c` chip code, `d`
 *   date YYMMDD, `t` time hh:mm:ss.mmm, `b` bib, `l` lap, `dv` device, `re` reader, `an` antenna;
 *   answered `<us>@AckPassing@<n>@$` — the sender re-sends what was not acknowledged.
 * - `Loc@Marker@t=…|mt=Gunshot|n=…@<n>@$` → `AckMarker@<n>`; `Loc@Store@…@<n>@$` (legacy) →
 *   `AckStore@<n>`.
 * - The hello `Loc@Pong@$` → `<us>@AckPong@Version2.1@$` (without the version T&S speaks V1);
 *   `Loc@Ping@$` → `AckPing`; `Loc@AckGetInfo@id=…|…@$` (device info,
 *   battery `bat`).
 * The location name maps to a timing point (device point map, else the location as a key).
 */
import { dayMs, type Parsed, TOKEN, timeOfDayMs, type VendorRead } from './common.ts';

export interface MylapsFrame {
  location: string;
  fn: string;
  data: string[];
}

/** Splits a buffer into complete `…$` frames; returns them and the unfinished rest. */
export function splitMylapsFrames(text: string): { frames: string[]; rest: string } {
  const frames: string[] = [];
  let start = 0;
  for (let end = text.indexOf('$', start); end !== -1; end = text.indexOf('$', start)) {
    const frame = text.slice(start, end).replace(/^[\r\n]+/, '');
    if (frame.trim()) frames.push(frame);
    start = end + 1;
  }
  return { frames, rest: text.slice(start).replace(/^[\r\n]+/, '') };
}

/** `Loc@Fn@a@b@` → its parts (the trailing `@` before `$` is optional). */
export function parseMylapsFrame(frame: string): Parsed<{ frame: MylapsFrame }> {
  const parts = frame.split('@');
  if (parts[parts.length - 1] === '') parts.pop();
  const [location, fn, ...data] = parts;
  if (!location || !fn || location.length > 64) return { ok: false, reason: 'malformed frame' };
  return { ok: true, frame: { location, fn, data } };
}

/** One passing `t=…|c=…|d=…|…` → a read (chip, time as UTC-like ms, lap, bib). */
export function parseMylapsPassing(text: string): Parsed<{ read: VendorRead & { lap?: string } }> {
  const kv = new Map<string, string>();
  for (const pair of text.split('|')) {
    const eq = pair.indexOf('=');
    if (eq > 0) kv.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const chip = kv.get('c');
  const t = kv.get('t');
  const d = kv.get('d');
  if (!chip || !TOKEN.test(chip)) return { ok: false, reason: 'bad chip code' };
  const tod = t ? timeOfDayMs(t) : null;
  const dm = d ? /^(\d{2})(\d{2})(\d{2})$/.exec(d) : null;
  const day = dm ? dayMs(2000 + Number(dm[1]), Number(dm[2]), Number(dm[3])) : null;
  if (tod === null || day === null) return { ok: false, reason: 'bad date or time' };
  const lap = kv.get('l');
  return { ok: true, read: { chip, pointKey: null, deviceTimeMs: day + tod, ...(lap ? { lap } : {}) } };
}

/** A frame as sent: `parts@…@$`. */
export function mylapsFrame(...parts: string[]): string {
  return `${parts.join('@')}@$`;
}
