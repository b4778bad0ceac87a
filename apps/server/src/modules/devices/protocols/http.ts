/**
 * Reads POSTed over HTTP by Impinj Speedway Connect and by RaceResult's exporters.
 *
 * Impinj Speedway Connect (Impinj support: "Speedway Connect Data Integration"), JSON output in
 * Inventory mode: one object per tag report `{"antennaPort":7,"epc":"9999…","firstSeenTimestamp":
 * "2018-06-14T00:15:54.36879Z","peakRssi":-51,"isHeartBeat":false}`; the HTTP POST carries one or
 * several (an array, newline-separated objects, or `{"tag_reads":[…]}` as older releases do, where
 * the timestamp may be microseconds since the epoch). Heartbeats carry no read. The antenna port
 * maps to a timing point (device point map `"1": "finish"`).
 *
 * RaceResult exporter "Raw Data Record JSON" (RaceResult knowledge base, "Default raw data
 * exporters"): `{"ID":1,"Bib":50001,"TimingPoint":"STARTFINISH","Passing":{"Transponder":"ZICAD30",
 * "UTCTime":"2024-01-12T09:06:35.944Z","DeviceID":"D-50432","LoopID":8,"FileNo":177,"PassingNo":1,
 * "Battery":3,…}}`; one record, an array, or newline-separated records. The timing point maps
 * through the point map (else it is the key itself).
 */
import { type Parsed, TOKEN, type VendorRead } from './common.ts';

/** Parses a body that may be JSON (object or array) or newline-separated JSON objects. */
export function jsonRecords(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') return [body];
  if (typeof body !== 'string') return null;
  const text = body.trim();
  if (!text) return [];
  try {
    const one = JSON.parse(text) as unknown;
    return Array.isArray(one) ? one : [one];
  } catch {
    const out: unknown[] = [];
    for (const line of text.split(/\r?\n/)) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        return null;
      }
    }
    return out;
  }
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

function timestampMs(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e14 ? Math.floor(v / 1000) : v; // µs or ms
  if (typeof v === 'string') {
    if (/^\d{13,17}$/.test(v)) return timestampMs(Number(v));
    const t = Date.parse(v);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

/** Impinj tag reports → reads (`antenna` names the point through the map) and heartbeats. */
export function parseImpinj(
  records: unknown[],
): Parsed<{ reads: (VendorRead & { antenna: string })[]; heartbeats: number }> {
  const flat: unknown[] = [];
  for (const r of records) {
    const o = asRecord(r);
    if (o && Array.isArray(o.tag_reads)) flat.push(...o.tag_reads);
    else flat.push(r);
  }
  const reads: (VendorRead & { antenna: string })[] = [];
  let heartbeats = 0;
  for (const [k, r] of flat.entries()) {
    const o = asRecord(r);
    if (!o) return { ok: false, reason: `record ${k}: not an object` };
    if (o.isHeartBeat === true) {
      heartbeats++;
      continue;
    }
    const epc = o.epc;
    if (typeof epc !== 'string' || !TOKEN.test(epc)) return { ok: false, reason: `record ${k}: bad epc` };
    const t = timestampMs(o.firstSeenTimestamp);
    if (t === null || t <= 0) return { ok: false, reason: `record ${k}: bad firstSeenTimestamp` };
    const antenna = o.antennaPort ?? o.antenna_port;
    reads.push({
      chip: epc,
      pointKey: null,
      deviceTimeMs: t,
      antenna: antenna === undefined ? '' : String(antenna),
    });
  }
  return { ok: true, reads, heartbeats };
}

/** RaceResult Raw Data Record JSON → reads (`timingPoint` names the point through the map). */
export function parseRrExporter(
  records: unknown[],
): Parsed<{ reads: (VendorRead & { timingPoint: string })[] }> {
  const reads: (VendorRead & { timingPoint: string })[] = [];
  for (const [k, r] of records.entries()) {
    const o = asRecord(r);
    const p = asRecord(o?.Passing);
    if (!o || !p) return { ok: false, reason: `record ${k}: expected a raw data record with Passing` };
    const chip = typeof p.Transponder === 'string' && p.Transponder ? p.Transponder : undefined;
    const bib = o.Bib !== undefined && o.Bib !== null && String(o.Bib) !== '0' ? String(o.Bib) : undefined;
    if (chip !== undefined && !TOKEN.test(chip)) return { ok: false, reason: `record ${k}: bad Transponder` };
    if (!chip && !bib) return { ok: false, reason: `record ${k}: no Transponder nor Bib` };
    const t = timestampMs(p.UTCTime);
    if (t === null || t <= 0) return { ok: false, reason: `record ${k}: bad UTCTime` };
    const battery = typeof p.Battery === 'number' ? p.Battery : undefined;
    reads.push({
      ...(chip ? { chip } : { bib: bib! }),
      pointKey: null,
      deviceTimeMs: t,
      timingPoint: typeof o.TimingPoint === 'string' ? o.TimingPoint : '',
      ...(battery !== undefined ? { battery } : {}),
    });
  }
  return { ok: true, reads };
}
