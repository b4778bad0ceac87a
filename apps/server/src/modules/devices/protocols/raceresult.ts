/**
 * RaceResult decoder protocol (the decoder listens on TCP 3601; the timing software connects).
 * From RaceResult's public knowledge base ("Decoder communication protocol", "Passing Record")
 * and metarace's `decoder/rrs.py`. Commands and answers are lines ending CR LF, fields split on
 * `;`, ISO-8859-1. Used here:
 * - `GETPROTOCOL` → `GETPROTOCOL;<min>;<current>;<max>`; `SETPROTOCOL;<v>` → `SETPROTOCOL;<v>`.
 * - `GETSTATUS` → `GETSTATUS;<date>;<time>;<hasPower>;<antennas>;<isInOperationMode>;…` (25
 *   fields after the command; the 10th is the battery charge in %, −1 while estimating).
 * - `STARTOPERATION` → `STARTOPERATION;…` (starts timing mode, a new passing file).
 * - `PASSINGS` → `PASSINGS;<count>;<file number>`.
 * - `<from>:<count>` → up to count passing records, then an empty line (or `ONLY <n>` first when
 *   fewer exist).
 * - `SETPUSHPASSINGS;1;0` → later passings pushed as `#P;<passing record>`.
 * Passing record (protocol ≥ 1.6): `<PassingNo>;<Bib/TranspCode>;<Date>;<Time>;<EventID>;<Hits>;
 * <MaxRSSI>;<InternalData>;<IsActive>;<Channel>;<LoopID>;<LoopOnly>;<WakeupCounter>;<Battery>;
 * <Temperature>;<InternalActiveData>;<BoxName>;<FileNumber>;<MaxRSSIAntenna>;<BoxId>`. The date is
 * `yyyy-MM-dd`, or `0000-00-0N` without GPS (N days after the start of operation); time `hh:mm:ss.kkk`.
 */
import { dayMs, onDeviceDay, type Parsed, TOKEN, timeOfDayMs, type VendorRead } from './common.ts';

export const RR_PORT = 3601;
export const RR_PROTOCOL = '3.2';

export interface RrPassing extends VendorRead {
  passingNo: number;
  fileNo: number | null;
  loopId: string | null;
}

/** A passing record (the fields after `#P;` for a pushed one). */
export function parseRrPassing(
  fields: readonly string[],
  nowMs: number,
  clockOffsetMs: number,
): Parsed<{ passing: RrPassing }> {
  if (fields.length < 9) return { ok: false, reason: 'passing record too short' };
  const [no, code, date, time] = fields as [string, string, string, string];
  const passingNo = Number(no);
  if (!/^\d{1,10}$/.test(no) || passingNo < 1) return { ok: false, reason: 'bad passing number' };
  if (!TOKEN.test(code)) return { ok: false, reason: 'bad transponder code' };
  const tod = timeOfDayMs(time);
  if (tod === null) return { ok: false, reason: 'bad time' };
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  let deviceTimeMs: number;
  if (d && d[1] === '0000') {
    // No GPS: the day is counted from the start of operation, which the protocol does not give;
    // the read is placed on the device's current day (a read from before midnight stays on the
    // day before, see onDeviceDay).
    deviceTimeMs = onDeviceDay(tod, nowMs, clockOffsetMs);
  } else if (d) {
    const day = dayMs(Number(d[1]), Number(d[2]), Number(d[3]));
    if (day === null) return { ok: false, reason: 'bad date' };
    deviceTimeMs = day + tod;
  } else if (date === '') deviceTimeMs = onDeviceDay(tod, nowMs, clockOffsetMs);
  else return { ok: false, reason: 'bad date' };
  const loopId = fields[10] || null;
  const battery = fields[13] ? Number(fields[13]) : Number.NaN;
  const fileNo = fields[17] && /^\d+$/.test(fields[17]) ? Number(fields[17]) : null;
  // The code is the chip as registered (a passive bib transponder's code is its bib number).
  const chip = code;
  return {
    ok: true,
    passing: {
      passingNo,
      fileNo,
      loopId,
      chip,
      pointKey: null,
      deviceTimeMs,
      ...(Number.isFinite(battery) ? { battery } : {}),
    },
  };
}

/** `GETSTATUS;…` → the decoder's clock (as UTC-like ms) and battery %, when given. */
export function parseRrStatus(fields: readonly string[]): {
  deviceTimeMs: number | null;
  battery: number | null;
} {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fields[0] ?? '');
  const tod = timeOfDayMs(fields[1] ?? '');
  const day = d ? dayMs(Number(d[1]), Number(d[2]), Number(d[3])) : null;
  const charge = Number(fields[9]);
  return {
    deviceTimeMs: day !== null && tod !== null ? day + tod : null,
    battery: Number.isFinite(charge) && charge >= 0 ? charge : null,
  };
}
