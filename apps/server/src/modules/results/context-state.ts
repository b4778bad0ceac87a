import { performance } from 'node:perf_hooks';
import { applyReportPatch, type ReportPatch, type ReportTable, TOP_WINDOW_ROWS } from '@tempora/contracts';
import {
  applyPassing,
  computeResultsFrom,
  createResultsState,
  defaultRules,
  type EditionBands,
  type FadePrior,
  type Passing,
  prepareRace,
  priorFromBands,
  type RaceDefinition,
  type ResultRules,
  type ResultsState,
} from '@tempora/domain';
import { diffRows } from './patch-encoding.ts';
import {
  compareRows,
  F,
  inReport,
  lastPassingsColumns,
  listGaps,
  P,
  passingRow,
  patchesRowByRow,
  type RaceView,
  rankingColumns,
  rankingRow,
  rankingRowSteps,
  rankingRows,
  singleRanks,
  startListColumns,
  startListRows,
} from './report-builder.ts';
import type { Stamp } from './report-snapshots.ts';
import type {
  ContextRow,
  ParticipantRow,
  PassingRow,
  PointRow,
  RaceRow,
  ReportDefinition,
  ReportRow,
} from './repository.ts';
import { frenchName } from './repository.ts';

/** A patch larger than this goes out as a reload request (Pusher's 10 KB limit on a message). */
export const MAX_PATCH_BYTES = 8_000;
/**
 * Up to this many changed runners, a ranking without a table to compare with is patched with
 * their full rows; beyond, its new table is built (and compared with from then on).
 */
const SMALL_CHANGE = 300;

/** One race of a context, live: the engine's incremental state plus what reports need. */
export interface RaceLive extends RaceView {
  row: RaceRow;
  points: PointRow[];
  results: ResultsState;
  byBib: Map<string, number>;
  byTracking: Map<string, number>;
  byChip: Map<string, number>;
  /** Last matched passings (newest last) for the last-passings reports. */
  recent: { seq: number; id: string; i: number; p: number }[];
  /** The fade prior of the course's previous editions, when the organiser gave them (issue 19). */
  prior?: FadePrior;
}

/**
 * The previous editions' fade stored in a race's rules (`rules.fadePrior`, set by
 * `PUT /api/console/races/:raceId/fade-prior`), or undefined when there is none or it is malformed.
 */
export function storedEditionBands(rules: Record<string, unknown>): EditionBands | undefined {
  const stored = rules.fadePrior as Partial<EditionBands> | undefined;
  if (!stored || !(typeof stored.bandMs === 'number' && stored.bandMs > 0) || !Array.isArray(stored.bands))
    return undefined;
  const bands = stored.bands.filter(
    (b) => Number.isInteger(b?.band) && Number.isFinite(b?.ratio) && Number.isFinite(b?.runners),
  );
  return bands.length ? { bandMs: stored.bandMs, bands } : undefined;
}

interface CachedTable {
  version: number;
  rows: unknown[][];
  etag: string;
  /**
   * Patches of a few runners published since `version`, in order (issue 20): applied only when a
   * larger change needs the table at their last version to compare with — a cost paid by what
   * was a reload, not by every passing.
   */
  trail: ReportPatch[];
}

/** Past this many patches in a trail the held table is dropped (a later large change reloads). */
const MAX_TRAIL = 64;

/** A sliced build lets the event loop in after about this much work (see `ContextState.build`). */
const BUILD_SLICE_MS = 8;
/** Runners or passings between two points where a sliced build may pause. */
const STEP = 2_000;

/** How many last passings a race keeps for the last-passings reports. */
const RECENT = 200;

/** How many reads of a race a coalesced publication carries (the newest). */
const PASSINGS_PER_RACE = 20;

/**
 * The runners a batch of reads changed in one race. A read that moves a runner past thousands
 * changes each of their ranks: listing them all (a `Set` insertion each, twice per read) was a
 * quarter of a node's CPU in the race-day spike (issue 20, V8 profiles). They are only ever used
 * one by one while few (a patch of their rows, up to `limit`); past it a patch compares tables, so
 * only "many" is kept. `runners` are the runners whose own reads changed (a finish: webhooks).
 */
export class ChangedRunners {
  private readonly ids = new Set<number>();
  private many = false;
  readonly runners = new Set<number>();
  /** Reads seen, for the last-passings reports and the published `passing` events. */
  readonly passed: RaceLive['recent'] = [];

  constructor(private readonly limit: number) {}

  /** How many runners changed; infinite once past `limit` (they are no longer listed). */
  get size(): number {
    return this.many ? Number.POSITIVE_INFINITY : this.ids.size;
  }

  /** The changed runners; only while `size` is finite. */
  values(): IterableIterator<number> {
    if (this.many) throw new Error('ChangedRunners: too many to list');
    return this.ids.values();
  }

  /** Adds an engine change: its first entry is the read's own runner, the rest moved in rank. */
  add(changed: ArrayLike<number>) {
    if (changed.length) this.runners.add(changed[0]!);
    if (this.many) return;
    // More than `limit` in one read: no need to look at them one by one.
    if (changed.length > this.limit) return this.overflow();
    for (let k = 0; k < changed.length; k++) {
      this.ids.add(changed[k]!);
      if (this.ids.size > this.limit) return this.overflow();
    }
  }

  private overflow() {
    this.many = true;
    this.ids.clear();
  }

  merge(other: ChangedRunners) {
    for (const i of other.runners) this.runners.add(i);
    if (this.many) return;
    if (other.many || other.ids.size > this.limit) return this.overflow();
    for (const i of other.ids) {
      this.ids.add(i);
      if (this.ids.size > this.limit) return this.overflow();
    }
  }
}

/** A report's table as this node last published it (the base of its next coalesced patch). */
interface PublishedTable {
  version: number;
  rows: unknown[][];
}

/** What one coalesced publication carries (see `ContextState.flush`). */
export interface Publication {
  patches: ReportPatch[];
  /**
   * Patches of the reports' watched rank windows (`ReportPatch.window`), each with its window `k`,
   * for `liveChannels.reportWindow` (0: the top window).
   */
  windows: { k: number; patch: ReportPatch }[];
  passed: { race: RaceLive; seen: RaceLive['recent'] }[];
}

/**
 * Who watches a report (issue 28: channels follow views): its whole table, some of its rank
 * windows (0: the top window), both or nobody — then its patches are not even built.
 */
export interface ReportWatch {
  all: boolean;
  /** The rank windows watched (`liveChannels.reportWindow`), ascending. */
  windows: number[];
}

/** Everyone, as before issue 28 (no occupancy known: tests, a context without channels). */
const WATCH_ALL: ReportWatch = { all: true, windows: [] };

/** A context's races and reports in memory; the source of truth stays the database. */
export class ContextState {
  readonly races = new Map<string, RaceLive>();
  /** bib or chip → race id, across the context's races. */
  private readonly runnerRace = new Map<string, string>();
  readonly reports: ReportRow[];
  readonly groups: { key: string; name: { en: string; fr: string } }[];
  /** Per report (`group/key`): its version (the `seq` of the last passing that changed it) and cached rows. */
  private readonly versions = new Map<string, number>();
  private readonly cache = new Map<string, CachedTable>();
  lastSeq = 0;
  /** The highest seq stored by this node or applied (ahead of `lastSeq` while applying). */
  knownSeq = 0;
  /** Applying and publishing acknowledged passings, in order, behind the acknowledgements. */
  applying: Promise<void> = Promise.resolve();
  // `n` first: a snapshot's tag starts with `s` (routes.ts), and a random one did 1 time in 36 —
  // the snapshot test, reading "not from a snapshot" off the tag, failed that often.
  private readonly instance = `n${Math.random().toString(36).slice(2, 8)}`;
  /**
   * The context's stamp read before its rows were (issue 27, report-snapshots.ts): names the
   * state this was built from, while `lastSeq` has not moved past it.
   */
  stamp?: Stamp;
  /** Shifts in patches (issue 20); off only to measure what patches were before them (bench). */
  compact = true;
  /** See `SMALL_CHANGE` (lowered by the property test to compare tables on every change). */
  smallChange = SMALL_CHANGE;
  /**
   * Coalescing (issue 20): per report, the table as last published from this node; per race, the
   * changes applied since (runners changed, reads seen) and not yet published.
   */
  private readonly published = new Map<string, PublishedTable>();
  /** Per report watched by rank windows: each window as last published (issue 28). */
  private readonly publishedWindows = new Map<string, Map<number, PublishedTable>>();
  private readonly pending = new Map<string, ChangedRunners>();
  /**
   * Who watches each report now (issue 28; the service sets it from the channels' occupancy). A
   * report nobody watches costs nothing at `stage` and `flush`: its version moves (readers fetch
   * it), no table is kept for it and no patch is built. `rows`: at most how many rows the report
   * has (the windows asked about).
   */
  watching: (group: string, report: string, rows: number) => ReportWatch = () => WATCH_ALL;

  constructor(
    readonly context: ContextRow,
    races: RaceRow[],
    points: PointRow[],
    participants: ParticipantRow[],
    passings: PassingRow[],
    reports: { groups: { key: string; name: { en: string; fr: string } }[]; reports: ReportRow[] },
    /** False: the races are filled by `ContextState.build` (in slices), not here. */
    fill = true,
  ) {
    this.reports = reports.reports;
    this.groups = reports.groups;
    if (fill) for (const _ of this.fill(races, points, participants, passings));
  }

  /**
   * The same state as the constructor's, built in slices of at most about `sliceMs` of work with
   * the event loop let in between (issue 14: building 135,000 runners at once held `/api/health`
   * for 150 ms and more after an import). `pause` is how a slice ends (tests hook it).
   */
  static async build(
    context: ContextRow,
    races: RaceRow[],
    points: PointRow[],
    participants: ParticipantRow[],
    passings: PassingRow[],
    reports: { groups: { key: string; name: { en: string; fr: string } }[]; reports: ReportRow[] },
    pause: () => Promise<unknown> = () => new Promise((resolve) => setImmediate(resolve)),
    sliceMs = BUILD_SLICE_MS,
  ): Promise<ContextState> {
    const ctx = new ContextState(context, races, points, participants, passings, reports, false);
    let sliceStart = performance.now();
    for (const _ of ctx.fill(races, points, participants, passings)) {
      if (performance.now() - sliceStart < sliceMs) continue;
      await pause();
      sliceStart = performance.now();
    }
    return ctx;
  }

  /**
   * Fills the races: yields between pieces of work (a few thousand runners or passings each,
   * or one engine step), where a sliced build may let the event loop in.
   */
  private *fill(
    races: RaceRow[],
    points: PointRow[],
    participants: ParticipantRow[],
    passings: PassingRow[],
  ): Generator<void> {
    // One pass groups the runners by race (in their order, as a filter per race would).
    const peopleOf = new Map<string, ParticipantRow[]>(races.map((r) => [r.id, []]));
    for (let k = 0; k < participants.length; k++) {
      const p = participants[k]!;
      peopleOf.get(p.raceId)?.push(p);
      if (k % STEP === STEP - 1) yield;
    }
    // Races in order, a later race's bib or chip taking over an earlier one's.
    for (const race of races) {
      const people = peopleOf.get(race.id)!;
      for (let k = 0; k < people.length; k++) {
        const p = people[k]!;
        this.runnerRace.set(`b:${p.bib}`, race.id);
        for (const chip of p.chips ?? []) this.runnerRace.set(`c:${chip}`, race.id);
        if (k % STEP === STEP - 1) yield;
      }
    }
    // Stored passings go through one full recompute per race (Boston 2017, 290,000 reads: ≈ 30 ms)
    // rather than one `applyPassing` each (≈ 9 s): the engine guarantees the same results, and
    // the state made from them takes later passings incrementally.
    const perRace = new Map<string, PassingRow[]>();
    for (let k = 0; k < passings.length; k++) {
      const passing = passings[k]!;
      if (passing.seq > this.lastSeq) this.lastSeq = passing.seq;
      const id =
        (passing.chip && this.runnerRace.get(`c:${passing.chip}`)) ||
        (passing.bib && this.runnerRace.get(`b:${passing.bib}`));
      if (k % STEP === STEP - 1) yield;
      if (!id) continue;
      const list = perRace.get(id);
      if (list) list.push(passing);
      else perRace.set(id, [passing]);
    }
    for (const race of races) {
      const racePoints = points.filter((p) => p.raceId === race.id);
      const people = peopleOf.get(race.id)!;
      const stored = perRace.get(race.id) ?? [];
      const definition = toDefinition(race, racePoints);
      const { fadePrior: _prior, ...own } = race.rules;
      const rules: ResultRules = { ...defaultRules, ...(own as Partial<ResultRules>) };
      const editions = storedEditionBands(race.rules);
      const prepared = prepareRace(definition, people, rules);
      yield;
      const computed = computeResultsFrom(prepared, stored);
      yield;
      const results = createResultsState(computed);
      yield;
      const byBib = new Map<string, number>();
      const byTracking = new Map<string, number>();
      const byChip = new Map<string, number>();
      for (let i = 0; i < people.length; i++) {
        const p = people[i]!;
        byBib.set(p.bib, i);
        byTracking.set(p.trackingKey, i);
        for (const chip of p.chips ?? []) byChip.set(chip, i);
        if (i % STEP === STEP - 1) yield;
      }
      const live: RaceLive = {
        eventId: this.context.eventId,
        ...(this.context.timeZone ? { timeZone: this.context.timeZone } : {}),
        row: race,
        points: racePoints,
        participants: people,
        pointNames: definition.points.map((p) => p.name),
        pointNamesFr: definition.points.map((p) => p.nameFr ?? p.name),
        results,
        byBib,
        byTracking,
        byChip,
        recent: [],
        ...(editions ? { prior: priorFromBands(editions) } : {}),
      };
      live.recent = recentPassings(live, stored);
      this.races.set(race.id, live);
    }
    this.knownSeq = this.lastSeq;
    for (const r of this.reports) this.versions.set(reportId(r.groupKey, r.key), this.lastSeq);
  }

  /** The race a read belongs to (by chip, else bib), or undefined. */
  raceOf(passing: Pick<Passing, 'bib' | 'chip'>): RaceLive | undefined {
    const id =
      (passing.chip && this.runnerRace.get(`c:${passing.chip}`)) ||
      (passing.bib && this.runnerRace.get(`b:${passing.bib}`));
    return id ? this.races.get(id) : undefined;
  }

  /**
   * Applies stored passings (in seq order) to the races' states; returns the changed participants
   * per race. Passings already applied are duplicates to the engine and change nothing.
   */
  apply(passings: readonly PassingRow[]): Map<string, ChangedRunners> {
    const out = new Map<string, ChangedRunners>();
    for (const passing of passings) {
      if (passing.seq > this.lastSeq) this.lastSeq = passing.seq;
      if (passing.seq > this.knownSeq) this.knownSeq = passing.seq;
      const race = this.raceOf(passing);
      if (!race) continue;
      const change = applyPassing(race.results, passing);
      if (change.outcome === 'duplicate' || change.outcome === 'unmatched') continue;
      let entry = out.get(race.row.id);
      if (!entry) {
        entry = new ChangedRunners(this.smallChange);
        out.set(race.row.id, entry);
      }
      entry.add(change.changed);
      const slot = race.results.index.slotByPointId.get(passing.pointId);
      const who = passing.chip ? race.byChip.get(passing.chip) : race.byBib.get(passing.bib ?? '');
      if (!passing.deleted && slot !== undefined && slot > 0 && who !== undefined) {
        const seen = { seq: passing.seq, id: passing.id, i: who, p: slot - 1 };
        race.recent.push(seen);
        entry.passed.push(seen);
        if (race.recent.length > RECENT) race.recent.splice(0, race.recent.length - RECENT);
      }
    }
    return out;
  }

  /**
   * Bumps the versions of the reports a change touched, drops or moves on their cached tables,
   * and builds their patches (or reload requests when a patch would be too large). A ranking
   * whose table this node holds at the patch's starting version is compared with its new table:
   * the patch says the moved ranks as shifts (issue 20), and the new table is kept for readers.
   * `encode` false (a catch-up with passings another node published): versions only.
   */
  patchesFor(changes: ReturnType<ContextState['apply']>, encode = true): ReportPatch[] {
    const patches: ReportPatch[] = [];
    for (const report of this.reports) {
      const definition = report.definition;
      const change = changes.get(definition.raceId);
      const race = this.races.get(definition.raceId);
      if (!change || !race || definition.kind === 'startList') continue;
      const id = reportId(report.groupKey, report.key);
      const fromVersion = this.versions.get(id) ?? 0;
      const version = this.lastSeq;
      const reload = { group: report.groupKey, report: report.key, version, reload: true as const };
      if (!encode) {
        this.bump(id, version);
        continue;
      }
      if (definition.kind === 'ranking') {
        const patch = this.rankingPatch(id, race, definition, change, fromVersion);
        if (patch) patches.push(patch);
        continue;
      }
      let upserts = change.passed.map((s) => passingRow(race, s.seq, s.i, s.p, s.id));
      const keep = new Set(race.recent.slice(-definition.limit).map((s) => s.id));
      // The new passings were appended: only the rows they pushed out of the window go, so a
      // patch stays as small as the change (not the whole history behind the window).
      const n = race.recent.length;
      const removes = race.recent
        .slice(Math.max(0, n - definition.limit - change.passed.length), Math.max(0, n - definition.limit))
        .map((s) => s.id);
      upserts = upserts.filter((row) => keep.has(row[P.key] as string));
      if (upserts.length === 0 && removes.length === 0) continue;
      this.bump(id, version);
      const patch: ReportPatch = {
        group: report.groupKey,
        report: report.key,
        fromVersion,
        version,
        upserts,
        removes,
      };
      patches.push(JSON.stringify(patch).length > MAX_PATCH_BYTES ? reload : patch);
    }
    return patches;
  }

  /**
   * A ranking's patch, or null when its rows did not change. A few changed runners: their full
   * rows, the patch kept in the trail of the table held for the report. Many, or a patch over
   * the limit: the new table is built and compared with the one held at `fromVersion` (its trail
   * applied: the property test holds that equal to a rebuild) — moved ranks and gaps become
   * shifts (issue 20); with no table held, a reload, and the new table kept so that the next
   * change is compared with it.
   */
  private rankingPatch(
    id: string,
    race: RaceLive,
    definition: ReportDefinition & { kind: 'ranking' },
    changed: ChangedRunners,
    fromVersion: number,
  ): ReportPatch | null {
    const [group, report] = splitReportId(id);
    const version = this.lastSeq;
    const reload: ReportPatch = { group, report, version, reload: true };
    const held = this.cache.get(id);
    const trailing = this.compact && held && (held.trail.at(-1)?.version ?? held.version) === fromVersion;
    if (changed.size <= this.smallChange && patchesRowByRow(definition)) {
      const rankOf = singleRanks(race.results);
      const gapOf = listGaps(race, definition);
      const upserts: unknown[][] = [];
      for (const i of changed.values()) {
        if (inReport(race, definition, i)) upserts.push(rankingRow(race, i, definition, rankOf, gapOf));
      }
      if (upserts.length === 0) return null;
      const patch: ReportPatch = { group, report, fromVersion, version, upserts, removes: [] };
      if (JSON.stringify(patch).length <= MAX_PATCH_BYTES) {
        this.versions.set(id, version);
        if (trailing && held.trail.length < MAX_TRAIL) held.trail.push(patch);
        else this.cache.delete(id);
        return patch;
      }
    }
    const before = trailing ? this.heldAt(id, fromVersion) : undefined;
    const rows = rankingRows(race, definition);
    this.versions.set(id, version);
    this.store(id, race, version, rows);
    if (!before) return reload;
    const diff = diffRows(before, rows);
    if (!diff.upserts.length && !diff.removes.length && !diff.shifts.length && !diff.edits.length) {
      // Nothing moved after all: the version stays where readers have it.
      this.versions.set(id, fromVersion);
      this.store(id, race, fromVersion, rows);
      return null;
    }
    const patch: ReportPatch = {
      group,
      report,
      fromVersion,
      version,
      upserts: diff.upserts,
      removes: diff.removes,
      ...(diff.shifts.length ? { shifts: diff.shifts } : {}),
      ...(diff.edits.length ? { edits: diff.edits } : {}),
    };
    return JSON.stringify(patch).length > MAX_PATCH_BYTES ? reload : patch;
  }

  /**
   * Every report's version, as a publication leaves them (issue 20: one publisher per context).
   * The other nodes take them (`adoptVersions`) once they hold the same passings.
   */
  versionsOf(): Record<string, number> {
    return Object.fromEntries(this.versions);
  }

  /**
   * Takes the publisher's versions, this state holding exactly the passings its publication held
   * (up to its `seq`). A version names a report's rows (those after the passings up to it), but
   * two nodes can name the same rows differently: a version moves to the last seq of the batch
   * that changed the race, and batches differ between nodes; a publication that found the rows
   * unmoved keeps the older one. A reader of this node must get the version the publisher's next
   * patch starts from, so the follower takes the publisher's names.
   */
  adoptVersions(versions: Readonly<Record<string, number>>): void {
    for (const [id, version] of Object.entries(versions))
      if (this.versions.has(id) && this.versions.get(id) !== version) this.versions.set(id, version);
  }

  /** Forgets what waits for `flush` (this node stopped publishing: the new publisher sends it). */
  dropPending(): void {
    this.pending.clear();
  }

  /** Whether changes wait for `flush`. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Applies stored passings (in seq order) and moves the versions of the reports they touched at
   * once — a read answers from them — but publishes nothing (issue 20: coalescing): the changes
   * are kept until `flush`, which sends one patch per report from the table last published.
   * Before a race's first change of a window, the tables of its reports are kept as published
   * (they are, unless another node's passings moved them since: then this node's copy at the
   * current version becomes the base). `own` false (a catch-up with passings another node
   * stored and published): its changes join a window already open, never open one.
   */
  stage(passings: readonly PassingRow[], own = true): ReturnType<ContextState['apply']> {
    if (own) {
      const races = new Set<string>();
      for (const passing of passings) {
        const race = this.raceOf(passing);
        if (race && !this.pending.has(race.row.id)) races.add(race.row.id);
      }
      for (const report of this.reports) {
        if (!races.has(report.definition.raceId) || report.definition.kind === 'startList') continue;
        const id = reportId(report.groupKey, report.key);
        const watch = this.watchOf(report);
        if (!watch.all && !watch.windows.length) {
          this.forgetPublished(id);
          continue;
        }
        const version = this.versions.get(id) ?? 0;
        if (this.published.get(id)?.version !== version)
          this.published.set(id, { version, rows: this.table(report).rows });
      }
    }
    const changes = this.apply(passings);
    this.patchesFor(changes, false);
    for (const [raceId, change] of changes) {
      let entry = this.pending.get(raceId);
      if (!entry) {
        if (!own) continue;
        entry = new ChangedRunners(this.smallChange);
        this.pending.set(raceId, entry);
      }
      entry.merge(change);
      // Another node's reads went out from it (one publisher per change): only their effect on
      // the tables joins this window.
      if (own) entry.passed.push(...change.passed);
      if (entry.passed.length > PASSINGS_PER_RACE)
        entry.passed.splice(0, entry.passed.length - PASSINGS_PER_RACE);
    }
    return changes;
  }

  /**
   * The coalesced publication of everything staged since the last one (issue 20): per report
   * touched, one patch from the version last published to the current one — the few changed
   * runners' rows, or the comparison of the two tables (shifts, edits, full rows) — or a reload
   * when the patch would pass `maxBytes` or no published table is held. A report whose rows did
   * not move after all keeps its version. Null when nothing was staged.
   */
  flush(maxBytes = MAX_PATCH_BYTES): Publication | null {
    if (!this.pending.size) return null;
    const pending = new Map(this.pending);
    this.pending.clear();
    const patches: ReportPatch[] = [];
    const windows: Publication['windows'] = [];
    for (const report of this.reports) {
      const definition = report.definition;
      const change = pending.get(definition.raceId);
      const race = this.races.get(definition.raceId);
      if (!change || !race || definition.kind === 'startList') continue;
      const id = reportId(report.groupKey, report.key);
      const watch = this.watchOf(report);
      if (!watch.all && !watch.windows.length) {
        // Nobody looks: no patch built, no table kept (issue 28). A client subscribing later
        // fetches the report, then patches start from the table this node then holds.
        this.forgetPublished(id);
        continue;
      }
      this.keepWindows(id, watch.windows);
      const version = this.versions.get(id) ?? 0;
      const before = this.published.get(id);
      if (before?.version === version) continue;
      const reload: ReportPatch = { group: report.groupKey, report: report.key, version, reload: true };
      if (!before) {
        patches.push(reload);
        this.publishedWindows.delete(id);
        for (const k of watch.windows) windows.push({ k, patch: reload });
        continue;
      }
      const fromVersion = before.version;
      let patch: ReportPatch | null = null;
      let rows: unknown[][] | null = null;
      if (definition.kind === 'ranking' && change.size <= this.smallChange && patchesRowByRow(definition)) {
        // The few changed runners' rows: every other row is as published.
        const rankOf = singleRanks(race.results);
        const gapOf = listGaps(race, definition);
        const upserts: unknown[][] = [];
        for (const i of change.values())
          if (inReport(race, definition, i)) upserts.push(rankingRow(race, i, definition, rankOf, gapOf));
        if (upserts.length) {
          const small: ReportPatch = {
            group: report.groupKey,
            report: report.key,
            fromVersion,
            version,
            upserts,
            removes: [],
          };
          if (JSON.stringify(small).length <= maxBytes) {
            const next = applyReportPatch(asTable(before), small);
            if (next) {
              patch = small;
              rows = next.rows;
            }
          }
        } else rows = before.rows;
      }
      if (!rows) {
        rows = this.rowsOf(race, definition);
        const diff = diffRows(before.rows, rows);
        if (diff.upserts.length || diff.removes.length || diff.shifts.length || diff.edits.length)
          patch = {
            group: report.groupKey,
            report: report.key,
            fromVersion,
            version,
            upserts: diff.upserts,
            removes: diff.removes,
            ...(diff.shifts.length ? { shifts: diff.shifts } : {}),
            ...(diff.edits.length ? { edits: diff.edits } : {}),
          };
      }
      if (!patch) {
        // Nothing moved after all: the version stays where the subscribers have it.
        this.versions.set(id, fromVersion);
        this.store(id, race, fromVersion, before.rows);
        continue;
      }
      this.published.set(id, { version, rows });
      if (this.cache.get(id)?.version !== version) this.store(id, race, version, rows);
      if (watch.all) patches.push(JSON.stringify(patch).length > maxBytes ? reload : patch);
      for (const k of watch.windows) {
        const part = this.windowPatch(id, k, report, before, rows, version);
        if (part) windows.push({ k, patch: JSON.stringify(part).length > maxBytes ? reload : part });
      }
    }
    const passed = [...pending]
      .filter(([, c]) => c.passed.length)
      .map(([raceId, c]) => ({ race: this.races.get(raceId)!, seen: c.passed }))
      .filter((p) => p.race);
    return { patches, windows, passed };
  }

  /** Who watches a report now (see `watching`). */
  private watchOf(report: ReportRow): ReportWatch {
    const rows = this.races.get(report.definition.raceId)?.participants.length ?? 0;
    return this.watching(report.groupKey, report.key, rows);
  }

  /** Forgets the windows of a report nobody watches any more (their chains would go stale). */
  private keepWindows(id: string, watched: readonly number[]) {
    const held = this.publishedWindows.get(id);
    if (!held) return;
    for (const k of held.keys()) if (!watched.includes(k)) held.delete(k);
    if (!held.size) this.publishedWindows.delete(id);
  }

  /**
   * The patch of a report's rank window k (issue 28: rows k·W … (k+1)·W − 1), from the window as
   * last published (or, first watched, as `before` had it) to `rows`: the rows entering and
   * leaving it and the changed cells of the others. Null when the window did not change (its
   * chain then keeps its last version: `applyWindowPatch` accepts any version from there).
   */
  private windowPatch(
    id: string,
    k: number,
    report: ReportRow,
    before: PublishedTable,
    rows: unknown[][],
    version: number,
  ): ReportPatch | null {
    const offset = k * TOP_WINDOW_ROWS;
    let held = this.publishedWindows.get(id);
    if (!held) {
      held = new Map();
      this.publishedWindows.set(id, held);
    }
    const base = held.get(k) ?? {
      version: before.version,
      rows: before.rows.slice(offset, offset + TOP_WINDOW_ROWS),
    };
    const now = rows.slice(offset, offset + TOP_WINDOW_ROWS);
    const diff = diffRows(base.rows, now);
    if (!diff.upserts.length && !diff.removes.length && !diff.shifts.length && !diff.edits.length) {
      held.set(k, base);
      return null;
    }
    held.set(k, { version, rows: now });
    return {
      group: report.groupKey,
      report: report.key,
      fromVersion: base.version,
      version,
      upserts: diff.upserts,
      removes: diff.removes,
      ...(diff.shifts.length ? { shifts: diff.shifts } : {}),
      ...(diff.edits.length ? { edits: diff.edits } : {}),
      window: TOP_WINDOW_ROWS,
      ...(offset ? { offset } : {}),
    };
  }

  /** Forgets what was published of a report nobody watches any more. */
  private forgetPublished(id: string) {
    this.published.delete(id);
    this.publishedWindows.delete(id);
  }

  private bump(id: string, version: number) {
    this.versions.set(id, version);
    this.cache.delete(id);
  }

  /** The rows held for a report at `version` (its table and trail), or undefined. */
  private heldAt(id: string, version: number): unknown[][] | undefined {
    const held = this.cache.get(id);
    if (!held || (held.trail.at(-1)?.version ?? held.version) !== version) return undefined;
    let table = {
      rows: held.rows,
      version: held.version,
      total: held.rows.length,
      keyField: 0,
      orderField: 1,
    };
    for (const patch of held.trail) {
      const next = applyReportPatch(table as ReportTable, patch);
      if (!next) return undefined;
      table = next;
    }
    return table.rows;
  }

  private store(id: string, race: RaceLive | undefined, version: number, rows: unknown[][]): CachedTable {
    // The report is part of the tag: two reports of a context often share a version, and the
    // route's encoded-body cache is keyed by the tag.
    const tag = `${this.instance}-${race?.row.epoch ?? 0}-${encodeURIComponent(id)}-${version}`;
    const cached: CachedTable = { version, rows, etag: `"${tag}"`, trail: [] };
    this.cache.set(id, cached);
    return cached;
  }

  /** A report's full table at its current version (cached until the next change). */
  table(report: ReportRow): Omit<ReportTable, 'total'> & { etag: string } {
    const id = reportId(report.groupKey, report.key);
    const version = this.versions.get(id) ?? 0;
    const race = this.races.get(report.definition.raceId);
    let cached = this.cache.get(id);
    if (!cached || cached.version !== version)
      cached = this.store(id, race, version, race ? this.rowsOf(race, report.definition) : []);
    return {
      eventId: this.context.eventId,
      db: this.context.db,
      group: report.groupKey,
      report: report.key,
      title: report.name,
      version,
      columns: race ? columnsOf(race, report.definition) : [],
      rows: cached.rows,
      keyField: 0,
      orderField: 1,
      etag: cached.etag,
    };
  }

  /**
   * `table`, the rows of a ranking not cached yet built in slices of about `sliceMs` with the
   * event loop let in between (issue 27: a 26,000-row ranking held it 130 ms). A passing applied
   * meanwhile would mix two states in the rows: then the table is built in one go.
   */
  async tableSliced(
    report: ReportRow,
    pause: () => Promise<unknown> = () => new Promise((resolve) => setImmediate(resolve)),
    sliceMs = BUILD_SLICE_MS,
  ): Promise<ReturnType<ContextState['table']>> {
    const id = reportId(report.groupKey, report.key);
    const version = this.versions.get(id) ?? 0;
    const race = this.races.get(report.definition.raceId);
    const definition = report.definition;
    if (!race || definition.kind !== 'ranking' || this.cache.get(id)?.version === version)
      return this.table(report);
    const [seq, known] = [this.lastSeq, this.knownSeq];
    const rows: unknown[][] = [];
    let sliceStart = performance.now();
    for (const _ of rankingRowSteps(race, definition, rows)) {
      if (performance.now() - sliceStart < sliceMs) continue;
      await pause();
      sliceStart = performance.now();
    }
    const now = this.versions.get(id) ?? 0;
    if (
      this.lastSeq === seq &&
      this.knownSeq === known &&
      now === version &&
      this.cache.get(id)?.version !== version
    )
      this.store(id, race, version, rows);
    return this.table(report);
  }

  private rowsOf(race: RaceLive, definition: ReportDefinition): unknown[][] {
    if (definition.kind === 'ranking') return rankingRows(race, definition);
    if (definition.kind === 'startList') return startListRows(race, definition);
    return race.recent
      .slice(-definition.limit)
      .map((s) => passingRow(race, s.seq, s.i, s.p, s.id))
      .sort(compareRows);
  }
}

/** A published table as `applyReportPatch` takes it. */
function asTable(held: PublishedTable): ReportTable {
  return {
    rows: held.rows,
    version: held.version,
    total: held.rows.length,
    keyField: 0,
    orderField: 1,
  } as ReportTable;
}

function columnsOf(race: RaceLive, definition: ReportDefinition) {
  if (definition.kind === 'ranking') return rankingColumns(race, definition.scope, definition.columns);
  if (definition.kind === 'startList') return startListColumns(definition.columns);
  return lastPassingsColumns(definition.columns);
}

export function reportId(group: string, key: string): string {
  return `${group}/${key}`;
}

/** The group and key of a `reportId` (a group key never holds a `/`: see `key` in routes.ts). */
function splitReportId(id: string): [string, string] {
  const at = id.indexOf('/');
  return [id.slice(0, at), id.slice(at + 1)];
}

/** The engine's race definition from the stored race and its points (the start mat apart). */
export function toDefinition(race: RaceRow, points: PointRow[]): RaceDefinition {
  const start = points.find((p) => p.isStart);
  const ranked = points.filter((p) => !p.isStart).sort((a, b) => a.position - b.position);
  return {
    id: race.id,
    name: race.name,
    date: race.raceDate,
    startType: race.startType,
    ...(race.gunTimeMs !== null ? { gunTime: race.gunTimeMs } : {}),
    waves: race.waves,
    ...(start ? { startPoint: { id: start.key, name: start.name, distanceM: 0 } } : {}),
    points: ranked.map((p) => ({ id: p.key, name: p.name, nameFr: frenchName(p), distanceM: p.distanceM })),
    categories: race.categories,
    ...(race.ageBasis ? { ageBasis: race.ageBasis } : {}),
  };
}

/**
 * The last `RECENT` matched, counted passings of a race (oldest first), as `apply` would have
 * kept them: reads of a ranked point by a known runner, not corrections.
 */
function recentPassings(race: RaceLive, stored: readonly PassingRow[]): RaceLive['recent'] {
  const recent: RaceLive['recent'] = [];
  for (let k = stored.length - 1; k >= 0 && recent.length < RECENT; k--) {
    const passing = stored[k]!;
    const slot = race.results.index.slotByPointId.get(passing.pointId);
    const who = passing.chip ? race.byChip.get(passing.chip) : race.byBib.get(passing.bib ?? '');
    if (!passing.deleted && slot !== undefined && slot > 0 && who !== undefined)
      recent.push({ seq: passing.seq, id: passing.id, i: who, p: slot - 1 });
  }
  return recent.reverse();
}

/** Keeps TypeScript aware that F is used by consumers of this module's row layout. */
export const RANKING_FIELDS = F;
