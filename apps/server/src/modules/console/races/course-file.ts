import type { LonLat } from '@tempora/domain';
import type * as Fxp from 'fast-xml-parser';
import { lazyRequire } from '../../../lib/lazy-require.ts';

const fxp = lazyRequire<typeof Fxp>('fast-xml-parser');

import { errors } from '../../../errors.ts';

/** The most vertices a stored course keeps (a marathon GPX at 1 s holds ~15,000). */
export const MAX_COURSE_POINTS = 50_000;

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function position(lat: unknown, lon: unknown): LonLat | null {
  const la = Number(lat);
  const lo = Number(lon);
  if (!Number.isFinite(la) || !Number.isFinite(lo) || Math.abs(la) > 90 || Math.abs(lo) > 180) return null;
  return [lo, la];
}

/**
 * The track of a GPX 1.1 file (topografix.com/GPX/1/1): every `trkpt` of every track segment in
 * order, else the `rtept` of its routes. Parsed by fast-xml-parser (never a regular expression
 * over the file); entities are not expanded.
 */
export function trackFromGpx(xml: string): LonLat[] {
  if (fxp().XMLValidator.validate(xml) !== true)
    throw errors.badRequest('COURSE_INVALID', 'The GPX file is not well-formed XML');
  const parser = new (fxp().XMLParser)({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    processEntities: false,
    isArray: (name) => ['trk', 'trkseg', 'trkpt', 'rte', 'rtept'].includes(name),
  });
  const doc = parser.parse(xml) as { gpx?: Record<string, unknown> };
  if (!doc.gpx) throw errors.badRequest('COURSE_INVALID', 'Not a GPX file (no <gpx> root)');
  type Pt = { lat?: unknown; lon?: unknown };
  const fromTracks = asArray(doc.gpx.trk as { trkseg?: { trkpt?: Pt[] }[] }[]).flatMap((trk) =>
    asArray(trk.trkseg).flatMap((seg) => asArray(seg.trkpt)),
  );
  const points = fromTracks.length
    ? fromTracks
    : asArray(doc.gpx.rte as { rtept?: Pt[] }[]).flatMap((rte) => asArray(rte.rtept));
  return points.map((p) => position(p.lat, p.lon)).filter((p): p is LonLat => p !== null);
}

type Geometry = { type?: unknown; coordinates?: unknown; geometries?: unknown };

function linesOf(geometry: Geometry | null | undefined): LonLat[] {
  if (!geometry || typeof geometry !== 'object') return [];
  const pairs = (coords: unknown): LonLat[] =>
    Array.isArray(coords)
      ? coords.flatMap((c) =>
          Array.isArray(c) ? [position(c[1], c[0])].filter((p): p is LonLat => p !== null) : [],
        )
      : [];
  if (geometry.type === 'LineString') return pairs(geometry.coordinates);
  if (geometry.type === 'MultiLineString' && Array.isArray(geometry.coordinates))
    return geometry.coordinates.flatMap((line) => pairs(line));
  if (geometry.type === 'GeometryCollection' && Array.isArray(geometry.geometries))
    return geometry.geometries.flatMap((g) => linesOf(g as Geometry));
  return [];
}

/** The track of a GeoJSON document (RFC 7946): its LineString / MultiLineString geometries in order. */
export function trackFromGeoJson(doc: unknown): LonLat[] {
  if (!doc || typeof doc !== 'object') throw errors.badRequest('COURSE_INVALID', 'Not a GeoJSON object');
  const d = doc as { type?: unknown; features?: unknown; geometry?: unknown };
  if (d.type === 'FeatureCollection' && Array.isArray(d.features))
    return d.features.flatMap((f) => linesOf((f as { geometry?: Geometry }).geometry));
  if (d.type === 'Feature') return linesOf(d.geometry as Geometry);
  return linesOf(d as Geometry);
}

/**
 * A course from an uploaded body: GPX text, GeoJSON text or an already parsed GeoJSON object.
 * Consecutive repeated positions are dropped; at least two distinct positions are needed.
 */
export function courseFromUpload(body: unknown): LonLat[] {
  let track: LonLat[];
  if (typeof body === 'string') {
    const text = body.trim();
    if (text.startsWith('<')) track = trackFromGpx(text);
    else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw errors.badRequest('COURSE_INVALID', 'Send a GPX (XML) or GeoJSON file');
      }
      track = trackFromGeoJson(parsed);
    }
  } else track = trackFromGeoJson(body);
  const clean = track.filter((p, k) => k === 0 || p[0] !== track[k - 1]![0] || p[1] !== track[k - 1]![1]);
  if (clean.length < 2)
    throw errors.badRequest('COURSE_EMPTY', 'The file holds no track (at least two positions)');
  if (clean.length > MAX_COURSE_POINTS)
    throw errors.badRequest('COURSE_TOO_LARGE', `At most ${MAX_COURSE_POINTS} track positions`);
  return clean.map(([lon, lat]) => [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6] as LonLat);
}
