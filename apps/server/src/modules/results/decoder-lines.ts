/**
 * The decoder line protocol's parsing (see `decoder-tcp.ts` for the protocol): AUTH lines, UTC
 * offsets and Wiclax-style reads, pure functions tested on their own.
 */
/** A chip read as the decoder sent it, resolved to a point and UTC epoch milliseconds. */
export interface DecoderRead {
  chip: string;
  pointKey: string;
  timeMs: number;
}

export type Parsed<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** Chips and point keys: 1–64 characters, no spaces or control characters. */
const TOKEN = /^[^\s\p{Cc}]{1,64}$/u;
const TIME = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/;

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

/** `dd-mm-yyyy hh:mm:ss[.ccc]` in a zone `offsetMinutes` east of UTC → UTC epoch ms, or null. */
function parseDecoderTime(text: string, offsetMinutes: number): number | null {
  const m = TIME.exec(text);
  if (!m) return null;
  const [day, month, year, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number((m[7] ?? '0').padEnd(3, '0'));
  // Day 0 of the next month is the last day of this one: 31-02 and 29-02 of common years fail.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return ms > 0 ? ms : null;
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
  const [chip, time, loop] = fields as [string, string, string];
  if (!TOKEN.test(chip)) return { ok: false, reason: 'bad chip, expected 1-64 characters without spaces' };
  const timeMs = parseDecoderTime(time, offsetMinutes);
  if (timeMs === null) return { ok: false, reason: 'bad time, expected a real dd-mm-yyyy hh:mm:ss.ccc' };
  const pointKey = devicePoint ?? loop;
  if (!pointKey) return { ok: false, reason: 'point missing: this device has none, the loop names it' };
  if (!TOKEN.test(pointKey)) return { ok: false, reason: 'bad point key' };
  return { ok: true, read: { chip, pointKey, timeMs } };
}
