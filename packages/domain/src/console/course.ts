/** A track as GeoJSON orders coordinates: [longitude, latitude] (RFC 7946 §3.1.1). */
export type LonLat = readonly [number, number];

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres between two positions (haversine, mean Earth radius). */
export function haversineM(a: LonLat, b: LonLat): number {
  const dLat = rad(b[1] - a[1]);
  const dLon = rad(b[0] - a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distance from the start at every vertex of the track (the first is 0). */
export function cumulativeDistances(track: readonly LonLat[]): number[] {
  const out = [0];
  for (let k = 1; k < track.length; k++) out.push(out[k - 1]! + haversineM(track[k - 1]!, track[k]!));
  return out;
}

/** Length of a track in metres. */
export function trackLengthM(track: readonly LonLat[]): number {
  return cumulativeDistances(track).at(-1) ?? 0;
}

/** A position on a track. */
export interface TrackPosition {
  lat: number;
  lon: number;
  /** Distance along the track from its start, in metres. */
  distanceM: number;
  /** How far the asked position lies from the track, in metres. */
  offsetM: number;
}

/**
 * The nearest position on the track to (lat, lon), with the distance along the track there. Each
 * segment is projected in a local equirectangular plane (metres per degree at the segment's
 * latitude): exact enough over a segment of a running course, whose vertices lie metres apart.
 * On a course passing twice near one place (an out-and-back), `minDistanceM` picks the passage at
 * or after that distance (a point placed at 30 km is not snapped to the 12 km on the way out).
 */
export function projectOnTrack(
  track: readonly LonLat[],
  lat: number,
  lon: number,
  minDistanceM = 0,
): TrackPosition | null {
  if (track.length === 0) return null;
  const along = cumulativeDistances(track);
  let best: TrackPosition | null = null;
  for (let k = 0; k < Math.max(1, track.length - 1); k++) {
    const a = track[k]!;
    const b = track[Math.min(k + 1, track.length - 1)]!;
    const mLon = 111_320 * Math.cos(rad(lat));
    const mLat = 110_574;
    const ax = (a[0] - lon) * mLon;
    const ay = (a[1] - lat) * mLat;
    const bx = (b[0] - lon) * mLon;
    const by = (b[1] - lat) * mLat;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
    const px = ax + t * dx;
    const py = ay + t * dy;
    const offsetM = Math.hypot(px, py);
    const distanceM = along[k]! + t * (along[Math.min(k + 1, track.length - 1)]! - along[k]!);
    if (distanceM + 1e-6 < minDistanceM && k < track.length - 2) continue;
    if (!best || offsetM < best.offsetM - 1e-9) {
      best = { lat: a[1] + t * (b[1] - a[1]), lon: a[0] + t * (b[0] - a[0]), distanceM, offsetM };
    }
  }
  return best;
}

/** The position at a distance along the track (clamped to its ends). */
export function pointAtDistance(
  track: readonly LonLat[],
  distanceM: number,
): { lat: number; lon: number } | null {
  if (track.length === 0) return null;
  const along = cumulativeDistances(track);
  if (distanceM <= 0) return { lat: track[0]![1], lon: track[0]![0] };
  for (let k = 1; k < track.length; k++) {
    if (along[k]! >= distanceM) {
      const span = along[k]! - along[k - 1]!;
      const t = span === 0 ? 0 : (distanceM - along[k - 1]!) / span;
      const a = track[k - 1]!;
      const b = track[k]!;
      return { lat: a[1] + t * (b[1] - a[1]), lon: a[0] + t * (b[0] - a[0]) };
    }
  }
  const end = track[track.length - 1]!;
  return { lat: end[1], lon: end[0] };
}
