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

/** Where a spread pack's markers go: around the pack's place, all inside the drawing. */
export interface SpreadPack {
  /** The ring's centre (the pack's place, moved inside the drawing when near an edge). */
  readonly cx: number;
  readonly cy: number;
  readonly points: readonly { x: number; y: number }[];
}

/**
 * Spreads a pack of `n` markers on a ring around (x, y) (issue 27: a "×3" marker opened a list
 * on a phone; the pack now opens on the map, as map libraries spiderfy a cluster): `spacing`
 * apart along the ring (a marker's width and a gap, so none covers another), at least
 * `minRadius` from the centre, the first at the top, clockwise. The ring moves inside the
 * drawing (`width` × `height`, `margin` from each edge) when the pack is near an edge.
 */
export function spreadPack(
  x: number,
  y: number,
  n: number,
  {
    width,
    height,
    spacing = 44,
    minRadius = 46,
    margin = 22,
  }: {
    width: number;
    height: number;
    spacing?: number;
    minRadius?: number;
    margin?: number;
  },
): SpreadPack {
  const radius = Math.max(minRadius, (spacing * n) / (2 * Math.PI));
  const clamp = (v: number, size: number) =>
    Math.min(Math.max(v, margin + radius), Math.max(margin + radius, size - margin - radius));
  const cx = clamp(x, width);
  const cy = clamp(y, height);
  const points = Array.from({ length: n }, (_, k) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * k) / n;
    return { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) };
  });
  return { cx, cy, points };
}
