/** A course as [lon, lat] pairs (GeoJSON order). */
export type Coordinates = readonly (readonly [number, number])[];

const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres between two [lon, lat] points. */
export function haversine(a: readonly [number, number], b: readonly [number, number]): number {
  const dLat = rad(b[1] - a[1]);
  const dLon = rad(b[0] - a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

/**
 * The point at `share` (0–1) of the course's length: a runner's estimated distance over the race
 * distance placed on the drawn line (the drawing may be shorter or longer than the race).
 */
export function pointAlong(course: Coordinates, share: number): [number, number] | null {
  if (course.length === 0) return null;
  if (course.length === 1) return [course[0]![0], course[0]![1]];
  const legs = course.slice(1).map((c, k) => haversine(course[k]!, c));
  const total = legs.reduce((a, b) => a + b, 0);
  let left = Math.min(1, Math.max(0, share)) * total;
  for (let k = 0; k < legs.length; k++) {
    const leg = legs[k]!;
    if (left <= leg || k === legs.length - 1) {
      const f = leg === 0 ? 0 : Math.min(1, left / leg);
      const a = course[k]!;
      const b = course[k + 1]!;
      return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
    }
    left -= leg;
  }
  return null;
}

/** Projects [lon, lat] into an SVG box (equirectangular, scaled by cos(latitude), north up). */
export function projector(points: Coordinates, width: number, height: number, pad = 24) {
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  const minLon = Math.min(...lons);
  const maxLon = Math.max(...lons);
  const minLat = Math.min(...lats);
  const maxLat = Math.max(...lats);
  const k = Math.cos(rad((minLat + maxLat) / 2));
  const spanX = Math.max(1e-9, (maxLon - minLon) * k);
  const spanY = Math.max(1e-9, maxLat - minLat);
  const scale = Math.min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY);
  const offX = (width - spanX * scale) / 2;
  const offY = (height - spanY * scale) / 2;
  return (p: readonly [number, number]): [number, number] => [
    offX + (p[0] - minLon) * k * scale,
    height - (offY + (p[1] - minLat) * scale),
  ];
}
