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
 * | `results-{db}-runner-{bib}`               | one runner's reads (tracking card, favourites, detail) |
 * | `results-{db}-passings`                   | every read (the desk)                                  |
 * | `results-{db}-changes`                    | `changed` `{ races }` once per publication (pages that  |
 * |                                           | refetch: statistics, leaders, map, time trial)         |
 * | `results-{db}`                            | everything, as before issue 28 (integrators' firehose) |
 *
 * Names only (a spectator page's first chunks carry them): a top window's patches are applied by
 * `applyWindowPatch` (report-patch.ts).
 */

/** Rows of a report's top window (`…-top`): what a phone or a screen shows first, with margin. */
export const TOP_WINDOW_ROWS = 30;

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
