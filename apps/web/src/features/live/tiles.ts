import type { Coordinates } from './course.ts';

/**
 * Raster map tiles under the course (issue 7): Web Mercator, 256-pixel tiles, from MapTiler's
 * raster API with the environment's `mapKey` (product decision; no key — or no network — leaves
 * the plain background). The whole-number zoom is the largest at which the course fits the box.
 */
export const TILE_SIZE = 256;
export const TILE_URL = 'https://api.maptiler.com/maps/streets-v2/256/{z}/{x}/{y}.png?key={key}';
const MAX_ZOOM = 18;

/** [lon, lat] → world coordinates in [0, 1] × [0, 1] (Web Mercator, y down). */
export function toWorld(p: readonly [number, number]): [number, number] {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, p[1])) * Math.PI) / 180);
  return [(p[0] + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
}

export interface TileView {
  zoom: number;
  project(p: readonly [number, number]): [number, number];
  tiles: { x: number; y: number; z: number; left: number; top: number }[];
}

/** The zoom, projection and tiles covering a `width` × `height` box centred on the course. */
export function tileView(points: Coordinates, width: number, height: number, pad = 24): TileView {
  const world = points.map(toWorld);
  const xs = world.map((w) => w[0]);
  const ys = world.map((w) => w[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let zoom = 0;
  while (
    zoom < MAX_ZOOM &&
    (maxX - minX) * TILE_SIZE * 2 ** (zoom + 1) <= width - 2 * pad &&
    (maxY - minY) * TILE_SIZE * 2 ** (zoom + 1) <= height - 2 * pad
  )
    zoom++;
  const scale = TILE_SIZE * 2 ** zoom;
  const ox = width / 2 - ((minX + maxX) / 2) * scale;
  const oy = height / 2 - ((minY + maxY) / 2) * scale;
  const count = 2 ** zoom;
  const tiles: TileView['tiles'] = [];
  for (let ty = Math.floor(-oy / TILE_SIZE); ty * TILE_SIZE + oy < height; ty++) {
    if (ty < 0 || ty >= count) continue;
    for (let tx = Math.floor(-ox / TILE_SIZE); tx * TILE_SIZE + ox < width; tx++) {
      tiles.push({
        x: ((tx % count) + count) % count,
        y: ty,
        z: zoom,
        left: tx * TILE_SIZE + ox,
        top: ty * TILE_SIZE + oy,
      });
    }
  }
  return {
    zoom,
    project: (p) => {
      const [x, y] = toWorld(p);
      return [x * scale + ox, y * scale + oy];
    },
    tiles,
  };
}

/** A tile's URL from the template and the map key. */
export function tileUrl(tile: { x: number; y: number; z: number }, key: string, template = TILE_URL): string {
  return template
    .replace('{z}', String(tile.z))
    .replace('{x}', String(tile.x))
    .replace('{y}', String(tile.y))
    .replace('{key}', encodeURIComponent(key));
}
