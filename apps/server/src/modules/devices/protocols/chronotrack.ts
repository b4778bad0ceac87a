/**
 * ChronoTrack socket protocol CTP01 (the ChronoTrack client, SimpleClient / CCS, connects to the
 * scoring software), from the notes published with `racemap/2-racemap-forwarder`
 * (src/main/chronoTrack). Lines end CR LF, fields split on `~`.
 * - The client greets `<name>~<version>~CTP01`; the server answers `<name>~<version>~<n>` and n
 *   setting lines `key=value` (guntimes, newlocations, stream-mode=push, time-format=iso), then
 *   `getlocations`, and `start` once the client answered `ack~getlocations~<loc>…`; `start` may
 *   name a location and the sequence number to stream from (`start~<loc>~<seq>`).
 * - Reads: `CT01_33~<seq>~<location>~<tag>~<time>~<lap count>~<reader id>~<gator>`; a tag of
 *   `guntime` is a gun time, `newlocation` announces a location (we ask `getlocations` again).
 *   Time is ISO `yyyy-MM-ddTHH:mm:ss.ss` (or `HH:mm:ss.ss` without a date: the device's day).
 * - `ping` / `ack~ping` keep the connection alive.
 * The stream has no acknowledgement: after a reconnection Tempora asks each location from the
 * read after its last stored one; a read sent again anyway is named by chip, point and time
 * (results service), so nothing is stored twice.
 */
import { dayMs, onDeviceDay, type Parsed, TOKEN, timeOfDayMs, type VendorRead } from './common.ts';

export const CT_PROTOCOL = 'CTP01';
export const CT_SERVER_NAME = 'Tempora';
export const CT_SERVER_VERSION = '1.0';
/** The settings Tempora asks for, sent after the greeting's count. */
export const CT_SETTINGS = ['guntimes=true', 'newlocations=true', 'stream-mode=push', 'time-format=iso'];

/**
 * The `start` commands once the client named its locations: a plain `start` (the whole session)
 * when nothing of it is stored yet, else per location `start~<loc>~<next seq>` (from the read after
 * the last stored one) or `start~<loc>` (a location with nothing stored).
 */
export function startCommands(locations: readonly string[], cursors: Readonly<Record<string, number>>) {
  const named = locations.filter((l) => l !== '');
  if (!named.some((l) => cursors[l] !== undefined)) return ['start'];
  return named.map((l) => (cursors[l] === undefined ? `start~${l}` : `start~${l}~${cursors[l]! + 1}`));
}

export interface ChronoRead extends VendorRead {
  seq: number;
  location: string;
  kind: 'read' | 'guntime' | 'newlocation';
}

/** A `CT01_33~…` line. */
export function parseChronoRead(
  line: string,
  nowMs: number,
  clockOffsetMs: number,
): Parsed<{ read: ChronoRead }> {
  const f = line.trim().split('~');
  if (f[0] !== 'CT01_33' && f[0] !== 'CT01_13') return { ok: false, reason: 'not a read' };
  if (f.length < 5) return { ok: false, reason: 'read too short' };
  const [, seqText, location, tag, time] = f as [string, string, string, string, string];
  const seq = Number(seqText);
  if (!/^\d{1,12}$/.test(seqText)) return { ok: false, reason: 'bad sequence number' };
  if (!location || !TOKEN.test(location)) return { ok: false, reason: 'bad location' };
  if (!TOKEN.test(tag)) return { ok: false, reason: 'bad tag' };
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](.+)$/.exec(time);
  let deviceTimeMs: number | null = null;
  if (iso) {
    const day = dayMs(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    const tod = timeOfDayMs(iso[4]!);
    deviceTimeMs = day !== null && tod !== null ? day + tod : null;
  } else {
    const tod = timeOfDayMs(time);
    deviceTimeMs = tod === null ? null : onDeviceDay(tod, nowMs, clockOffsetMs);
  }
  if (deviceTimeMs === null) return { ok: false, reason: 'bad time' };
  const kind = tag === 'guntime' ? 'guntime' : tag === 'newlocation' ? 'newlocation' : 'read';
  return {
    ok: true,
    read: { seq, location, kind, chip: tag, pointKey: null, deviceTimeMs },
  };
}
