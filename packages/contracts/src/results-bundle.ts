import type { PassingEvent, ReportPatch } from './results.ts';

/** The event name of a ResultsBundle on every live channel (`liveChannels`). */
export const RESULTS_EVENT = 'results';
/** Largest event data the bundles are packed to (Pusher's limit is 10 KB per event). */
export const RESULTS_BUNDLE_BYTES = 9_500;

/**
 * `results` on a live channel (issue 20; issue 28: what of it the channel's view shows): everything one change brings, in one event. Sending a
 * change's patches and reads as separate events made about 24 frames per subscriber for every
 * ingest batch, and writing frames was the largest share of a node's CPU in the race-day spike.
 */
export interface ResultsBundle {
  patches?: ReportPatch[];
  passings?: PassingEvent[];
}

/**
 * Packs patches (in order), then reads, into as few bundles as the event size limit allows (an
 * item larger than the limit alone goes in a bundle of its own). Sizes are counted exactly.
 */
export function bundleResults(
  patches: readonly ReportPatch[],
  passings: readonly PassingEvent[],
  maxBytes = RESULTS_BUNDLE_BYTES,
): ResultsBundle[] {
  const bundles: ResultsBundle[] = [];
  let current: ResultsBundle = {};
  let size = 2; // {}
  const add = (key: 'patches' | 'passings', item: ReportPatch | PassingEvent) => {
    const bytes = JSON.stringify(item).length;
    const list = current[key] as unknown[] | undefined;
    const other = key === 'patches' ? current.passings : current.patches;
    // `"key":[item]` (plus a comma after the other key), or `,item` in an existing list.
    let grow = list ? bytes + 1 : key.length + 5 + bytes + (other ? 1 : 0);
    if (size + grow > maxBytes && (current.patches || current.passings)) {
      bundles.push(current);
      current = {};
      size = 2;
      grow = key.length + 5 + bytes;
    }
    if (key === 'patches') {
      current.patches ??= [];
      current.patches.push(item as ReportPatch);
    } else {
      current.passings ??= [];
      current.passings.push(item as PassingEvent);
    }
    size += grow;
  };
  for (const p of patches) add('patches', p);
  for (const p of passings) add('passings', p);
  if (current.patches || current.passings) bundles.push(current);
  return bundles;
}

/** The events a `results` bundle stands for, in order (clients put these on their bus). */
export function unbundleResults(data: unknown): [string, unknown][] {
  const bundle = (data ?? {}) as ResultsBundle;
  const out: [string, unknown][] = [];
  for (const p of Array.isArray(bundle.patches) ? bundle.patches : []) out.push(['report-patch', p]);
  for (const p of Array.isArray(bundle.passings) ? bundle.passings : []) out.push(['passing', p]);
  return out;
}
