/**
 * Live channels follow views (issue 28): a client subscribes to what is on its screen and the
 * server publishes only to occupied channels, so what a spectator receives grows with what they
 * watch, not with the race. Every channel carries `results` events (`ResultsBundle`); names
 * follow Pusher's rules (`[A-Za-z0-9_\-=@,.;]`, at most 164 characters): a part holding other
 * characters is escaped (`;` + the code point in hex + `;`).
 *
 * | channel                                   | carries                                               |
 * |-------------------------------------------|-------------------------------------------------------|
 * | `results-{db}-report-{group}-{report}`    | every patch of one report (the whole table, scrolled)  |
 * | `results-{db}-report-{group}-{report}-top`| patches of the report's first `TOP_WINDOW_ROWS` rows   |
 * | `results-{db}-report-{group}-{report}-w{k}`| patches of rank window k: ranks k·W+1 … (k+1)·W        |
 * |                                           | (W = `TOP_WINDOW_ROWS`; window 0 is `-top`)            |
 * | `results-{db}-runner-{bib}`               | one runner's reads (tracking card, favourites, detail) |
 * | `results-{db}-passings`                   | every read (the desk)                                  |
 * | `results-{db}-changes`                    | `changed` `{ races }` once per publication (pages that  |
 * |                                           | refetch: statistics, leaders, map, time trial)         |
 * | `results-{db}`                            | everything, as before issue 28 (integrators' firehose) |
 *
 * Names only (a spectator page's first chunks carry them): a top window's patches are applied by
 * `applyWindowPatch` (report-patch.ts).
 */

/**
 * Rows of a report's top window (`…-top`): what a phone or a screen shows first, with margin. Every
 * rank window (`…-w{k}`) has as many: a phone shows one or two of them, a desktop two or three.
 */
export const TOP_WINDOW_ROWS = 30;

/** The rank window (`liveChannels.reportWindow`) holding the row at `index` (0-based). */
export function windowOf(index: number): number {
  return Math.max(0, Math.floor(index / TOP_WINDOW_ROWS));
}

/** The rank windows covering rows `first` … `last` (0-based, inclusive), in order. */
export function windowsCovering(first: number, last: number): number[] {
  const out: number[] = [];
  for (let k = windowOf(first); k <= windowOf(Math.max(first, last)); k++) out.push(k);
  return out;
}

const PLAIN = /^[A-Za-z0-9_\-=@,.]*$/;

/** One part of a channel name (a db, group, report key or bib), escaped to Pusher's characters. */
export function channelPart(value: string): string {
  if (PLAIN.test(value)) return value;
  let out = '';
  for (const c of value) out += /[A-Za-z0-9_\-=@,.]/.test(c) ? c : `;${c.codePointAt(0)!.toString(16)};`;
  return out;
}

/** The channels of a context's live views (see the table above). */
export const liveChannels = {
  /** Everything of a context (every report's patches and every read). */
  all: (db: string) => `results-${channelPart(db)}`,
  /** Every patch of one report. */
  report: (db: string, group: string, report: string) =>
    `results-${channelPart(db)}-report-${channelPart(group)}-${channelPart(report)}`,
  /** Patches of one report's first `TOP_WINDOW_ROWS` rows (`ReportPatch.window`). */
  reportTop: (db: string, group: string, report: string) => `${liveChannels.report(db, group, report)}-top`,
  /**
   * Patches of rank window `k`, the report's rows k·W … (k+1)·W − 1 (0-based; W =
   * `TOP_WINDOW_ROWS`, `ReportPatch.offset` = k·W): window 0 is the top window.
   */
  reportWindow: (db: string, group: string, report: string, k: number) =>
    k === 0
      ? liveChannels.reportTop(db, group, report)
      : `${liveChannels.report(db, group, report)}-w${Math.floor(k)}`,
  /** One runner's reads. */
  runner: (db: string, bib: string) => `results-${channelPart(db)}-runner-${channelPart(bib)}`,
  /** Every read of the context. */
  passings: (db: string) => `results-${channelPart(db)}-passings`,
  /** `changed` once per publication, naming the races whose reads it held (`ChangedEvent`). */
  changes: (db: string) => `results-${channelPart(db)}-changes`,
} as const;

/** The event name on `liveChannels.changes`. */
export const CHANGED_EVENT = 'changed';

/** `changed` on `liveChannels.changes`: the context changed; pages refetch what they show. */
export interface ChangedEvent {
  /** The races whose reads the publication held. */
  races: string[];
}
