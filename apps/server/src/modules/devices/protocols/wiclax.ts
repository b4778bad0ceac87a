/**
 * Wiclax "generic acquisition" protocol (the device listens; the timing software connects), from
 * the protocol notes published with `csutorasa/wiclax4j` (docs/protocol.md). Lines end with CR
 * (LF tolerated). From the device:
 * - a read `<chip>;<dd-mm-yyyy hh:mm:ss.ccc>;<loop>;<lap>;<battery %>;<rewind 0|1>`;
 * - a heartbeat `*`;
 * - `CLOCK dd-MM-yyyy HH:mm:ss` (the answer to `CLOCK`), `CLOCKOK`, `READOK`;
 * - `RACESTART HH:mm:ss,ccc` (a gun start pushed by the device).
 * From the software: `CLOCK`, `CLOCK <time>`, `STARTREAD`, `STOPREAD`,
 * `REWIND dd-MM-yyyy HH:mm:ss dd-MM-yyyy HH:mm:ss` (re-send the reads of that period, rewind flag 1).
 * The protocol has no acknowledgement: Tempora recovers a gap by a REWIND from shortly before its
 * last stored read of this device after every (re)connection.
 */
import { dayMs, type Parsed, TOKEN, timeOfDayMs, type VendorRead } from './common.ts';

export interface WiclaxRead extends VendorRead {
  loop: string | null;
  rewind: boolean;
}

/** `dd-mm-yyyy hh:mm:ss[.ccc]` → ms (as UTC), or null. */
export function parseWiclaxDateTime(text: string): number | null {
  const m = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}:\d{2}:\d{2}(?:[.,]\d{1,3})?)$/.exec(text.trim());
  if (!m) return null;
  const day = dayMs(Number(m[3]), Number(m[2]), Number(m[1]));
  const tod = timeOfDayMs(m[4]!);
  return day === null || tod === null ? null : day + tod;
}

/** `ms` → `dd-MM-yyyy HH:mm:ss` (the CLOCK and REWIND format). */
export function formatWiclaxDateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}-${p(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export type WiclaxMessage =
  | { kind: 'read'; read: WiclaxRead }
  | { kind: 'heartbeat' }
  | { kind: 'clock'; deviceTimeMs: number }
  | { kind: 'ok'; what: string }
  | { kind: 'raceStart'; timeOfDayMs: number };

/** One line from a Wiclax device. */
export function parseWiclaxLine(line: string): Parsed<{ message: WiclaxMessage }> {
  const text = line.trim();
  if (text === '*') return { ok: true, message: { kind: 'heartbeat' } };
  if (text === 'CLOCKOK' || text === 'READOK') return { ok: true, message: { kind: 'ok', what: text } };
  if (text.startsWith('CLOCK ')) {
    const t = parseWiclaxDateTime(text.slice(6));
    return t === null
      ? { ok: false, reason: 'bad CLOCK' }
      : { ok: true, message: { kind: 'clock', deviceTimeMs: t } };
  }
  if (text.startsWith('RACESTART ')) {
    const t = timeOfDayMs(text.slice(10));
    return t === null
      ? { ok: false, reason: 'bad RACESTART' }
      : { ok: true, message: { kind: 'raceStart', timeOfDayMs: t } };
  }
  const fields = text.split(';');
  if (fields.length < 2 || fields.length > 6) return { ok: false, reason: 'expected 2 to 6 fields' };
  const [chip, when, loop, , battery, rewind] = fields as [
    string,
    string,
    string?,
    string?,
    string?,
    string?,
  ];
  if (!TOKEN.test(chip)) return { ok: false, reason: 'bad chip' };
  const t = parseWiclaxDateTime(when);
  if (t === null) return { ok: false, reason: 'bad time' };
  const level = battery ? Number(battery) : Number.NaN;
  return {
    ok: true,
    message: {
      kind: 'read',
      read: {
        chip,
        pointKey: null,
        deviceTimeMs: t,
        loop: loop || null,
        rewind: rewind === '1',
        ...(Number.isFinite(level) ? { battery: level } : {}),
      },
    },
  };
}
