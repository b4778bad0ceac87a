/** A marker placed on the map, in the drawing's units. */
export interface PlacedMarker<T> {
  readonly x: number;
  readonly y: number;
  readonly item: T;
}

/** Markers drawn as one: their centre and everything they stand for. */
export interface MarkerCluster<T> {
  readonly x: number;
  readonly y: number;
  readonly items: T[];
}

/**
 * Groups markers closer than `minDistance` (issue 19: on a phone the runners of a pack covered
 * each other and their bibs could not be read): greedy, in the order given, each marker joining
 * the first cluster whose centre is near enough; a cluster's centre is the mean of its markers.
 */
export function clusterMarkers<T>(
  markers: readonly PlacedMarker<T>[],
  minDistance: number,
): MarkerCluster<T>[] {
  const clusters: { x: number; y: number; sx: number; sy: number; items: T[] }[] = [];
  for (const m of markers) {
    const near = clusters.find((c) => Math.hypot(c.x - m.x, c.y - m.y) < minDistance);
    if (near) {
      near.items.push(m.item);
      near.sx += m.x;
      near.sy += m.y;
      near.x = near.sx / near.items.length;
      near.y = near.sy / near.items.length;
    } else clusters.push({ x: m.x, y: m.y, sx: m.x, sy: m.y, items: [m.item] });
  }
  return clusters.map(({ x, y, items }) => ({ x, y, items }));
}
