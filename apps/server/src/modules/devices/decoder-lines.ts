/**
 * The decoder line protocol's parsing (see `decoder-tcp.ts` for the protocol): AUTH lines, UTC
 * offsets and Wiclax-style reads, pure functions tested on their own. A read line is parsed by the
 * one Wiclax parser (`devices/protocols/wiclax.ts`).
 */
import { parseWiclaxLine } from './protocols/wiclax.ts';

/** A chip read as the decoder sent it, resolved to a point and UTC epoch milliseconds. */
export interface DecoderRead {
  chip: string;
  pointKey: string;
  timeMs: number;
}

export type Parsed<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** Chips and point keys: 1–64 characters, no spaces or control characters. */
const TOKEN = /^[^\s\p{Cc}]{1,64}$/u;

/** `±hh:mm` → minutes east of UTC, or null (offsets run from -12:00 to +14:00). */
export function parseUtcOffset(text: string): number | null {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  const signed = m[1] === '-' ? -minutes : minutes;
  return Number(m[3]) < 60 && signed >= -12 * 60 && signed <= 14 * 60 ? signed : null;
}

/** `AUTH;<device key>[;<±hh:mm>]` → the key and the decoder clock's offset in minutes. */
export function parseAuthLine(line: string): Parsed<{ key: string; offsetMinutes: number }> {
  const fields = line.trim().split(';');
  if (fields[0] !== 'AUTH') return { ok: false, reason: 'AUTH required' };
  const [, key, offset, ...rest] = fields;
  if (!key || key.length > 256 || /\s/u.test(key) || rest.length)
    return { ok: false, reason: 'malformed AUTH, expected a device key and an optional ±hh:mm' };
  const offsetMinutes = offset === undefined ? 0 : parseUtcOffset(offset);
  if (offsetMinutes === null) return { ok: false, reason: 'bad UTC offset, expected ±hh:mm' };
  return { ok: true, key, offsetMinutes };
}

/**
 * A read line `<chip>;<dd-mm-yyyy hh:mm:ss[.ccc]>;<loop>[;<lap>[;<battery>[;<rewind>]]]`. The
 * point is `devicePoint` when the device has one, else the loop field.
 */
export function parseReadLine(
  line: string,
  offsetMinutes: number,
  devicePoint: string | null,
): Parsed<{ read: DecoderRead }> {
  const fields = line.trim().split(';');
  if (fields.length < 3 || fields.length > 6)
    return { ok: false, reason: 'expected 3 to 6 fields: chip, time, loop, lap, battery, rewind' };
  // The one Wiclax read parser (devices/protocols/wiclax.ts); this protocol adds the zone and the point.
  const parsed = parseWiclaxLine(line);
  if (!parsed.ok || parsed.message.kind !== 'read')
    return parsed.ok || parsed.reason === 'bad time'
      ? { ok: false, reason: 'bad time, expected a real dd-mm-yyyy hh:mm:ss.ccc' }
      : { ok: false, reason: 'bad chip, expected 1-64 characters without spaces' };
  const { read } = parsed.message;
  const timeMs = read.deviceTimeMs - offsetMinutes * 60_000;
  if (timeMs <= 0) return { ok: false, reason: 'bad time, expected a real dd-mm-yyyy hh:mm:ss.ccc' };
  const pointKey = devicePoint ?? read.loop;
  if (!pointKey) return { ok: false, reason: 'point missing: this device has none, the loop names it' };
  if (!TOKEN.test(pointKey)) return { ok: false, reason: 'bad point key' };
  return { ok: true, read: { chip: read.chip!, pointKey, timeMs } };
}
