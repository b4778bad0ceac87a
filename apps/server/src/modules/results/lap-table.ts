import { type LapTable, raceFormatSchema } from '@tempora/contracts';
import {
  applyLapCutoffs,
  type CutoffDecision,
  computeLapRace,
  type LapRaceDefinition,
  lapPositions,
  passingsOfResults,
} from '@tempora/domain';
import type { RaceLive } from './context-state.ts';
import { overridesOf } from './leg-table.ts';

/** Riders drawn on the lap chart. */
const CHART_RIDERS = 10;

/** The lap definition of a race's stored format, or null when the race is not a lap race. */
export function lapDefinitionOf(race: RaceLive): { kind: LapTable['format']; def: LapRaceDefinition } | null {
  const parsed = raceFormatSchema.safeParse(race.row.rules?.format);
  if (!parsed.success) return null;
  const f = parsed.data;
  if (f.kind !== 'laps' && f.kind !== 'timeLimited' && f.kind !== 'backyard') return null;
  const startMs = race.row.gunTimeMs ?? 0;
  const base = { startMs, lapPointId: f.lapPointKey, minLapMs: f.minLapS * 1000, lapLengthM: f.lapLengthM };
  if (f.kind === 'laps') return { kind: f.kind, def: { ...base, targetLaps: f.targetLaps } };
  if (f.kind === 'timeLimited')
    return { kind: f.kind, def: { ...base, limitMs: f.limitMinutes * 60_000, partialLap: f.partialLap } };
  return { kind: f.kind, def: { ...base, backyardIntervalMs: f.intervalMinutes * 60_000 } };
}

const cache = new WeakMap<RaceLive, { format: string; state: string; bucket: number; table: LapTable }>();
/** A lap table is recomputed at most this often per race, however fast reads arrive. */
const MIN_AGE_MS = 2_000;

/**
 * The live table of a lap race (issue 31): laps, last and best lap, distance and projection,
 * ranked by the format's rules, computed from the race's live reads. A public read: it is
 * recomputed at most every 2 s per race (a 24 h race of 100,000 reads takes ~0.1–0.2 s), and not
 * before a read changed the results or 10 s passed (projections move with the clock).
 */
export function lapTable(race: RaceLive, nowMs: number): LapTable | null {
  const lap = lapDefinitionOf(race);
  if (!lap) return null;
  const state = race.results;
  // The format and the desk's cut-off decisions: a change shows at once.
  const format = `${JSON.stringify(race.row.rules?.format)}|${JSON.stringify(race.row.rules?.cutoffOverrides ?? null)}`;
  const stateKey = `${state.stamp}|${state.passings.length}|${state.overlay.size}|${race.recent.at(-1)?.seq ?? 0}|${Math.floor(nowMs / 10_000)}`;
  const bucket = Math.floor(Date.now() / MIN_AGE_MS);
  const held = cache.get(race);
  if (held && held.format === format && (held.state === stateKey || held.bucket === bucket))
    return held.table;
  const participants = state.index.participants;
  const computed = computeLapRace(lap.def, participants, passingsOfResults(state), { nowMs });
  const f = raceFormatSchema.parse(race.row.rules?.format);
  const lapCutoffs = 'lapCutoffs' in f ? (f.lapCutoffs ?? []) : [];
  const decided = new Map<string, CutoffDecision>();
  if (lapCutoffs.length) {
    const gun = lap.def.startMs;
    const runners = computed.rows.map((r) => {
      const p = participants[r.index]!;
      const crossingsMs = r.crossings.map((c) => c.timeMs);
      // A rider whose race is over (finished, or past a time limit) is not cut for laps not ridden.
      const limit = lap.def.limitMs === undefined ? undefined : gun + lap.def.limitMs;
      const doneMs = r.status === 'finished' ? (crossingsMs.at(-1) ?? limit) : limit;
      return { bib: p.bib, startMs: p.startTime ?? gun, crossingsMs, doneMs };
    });
    const defs = lapCutoffs.map((c) => ({
      laps: c.laps,
      atMs: c.afterGunMinutes === undefined ? undefined : gun + c.afterGunMinutes * 60_000,
      elapsedMs: c.elapsedMinutes === undefined ? undefined : c.elapsedMinutes * 60_000,
      outcome: c.outcome,
    }));
    // The decision that applies (the last: earlier ones were reinstated) or the last one shown.
    for (const d of applyLapCutoffs(defs, runners, nowMs, overridesOf(race.row.rules?.cutoffOverrides)))
      decided.set(d.bib, d);
  }
  const out = new Set<number>();
  for (const r of computed.rows) {
    const d = decided.get(r.bib);
    const s = participants[r.index]!.status;
    if (d && !d.overridden && s !== 'DNS' && s !== 'DSQ') out.add(r.index);
  }
  // Cut riders leave the ranking; the others keep their order, ranked 1 + those strictly ahead.
  const kept = computed.order.filter((i) => !out.has(i));
  const rankOf = new Map<number, number>();
  kept.forEach((i, k) => {
    const prev = kept[k - 1];
    const same = prev !== undefined && computed.rows[prev]!.rank === computed.rows[i]!.rank;
    rankOf.set(i, same ? rankOf.get(prev)! : k + 1);
  });
  const ranked = new Set(kept);
  const order = [...kept, ...computed.rows.map((r) => r.index).filter((i) => !ranked.has(i))];
  const name = (i: number) => `${participants[i]!.firstName} ${participants[i]!.lastName}`.trim();
  const top = kept.slice(0, CHART_RIDERS);
  const positions = lapPositions(
    computed.rows.map((r) => ({ bib: r.bib, crossingsMs: r.crossings.map((c) => c.timeMs) })),
  );
  const table: LapTable = {
    raceId: race.row.id,
    name: race.row.name,
    format: lap.kind,
    leaderLaps: computed.leaderLaps,
    lapsToGo: computed.lapsToGo ?? null,
    rows: order.map((i) => {
      const r = computed.rows[i]!;
      const p = participants[i]!;
      const d = decided.get(p.bib);
      const shown = d && p.status !== 'DNS' && p.status !== 'DSQ';
      const lapNo = d ? Number(d.pointId.slice(4)) : 0;
      return {
        rank: rankOf.get(i) ?? null,
        bib: p.bib,
        name: name(i),
        status: out.has(i) && d ? d.outcome : r.status,
        laps: r.laps,
        lastLapMs: r.lastLapMs ?? null,
        bestLapMs: r.bestLapMs ?? null,
        elapsedMs: r.elapsedMs ?? null,
        distanceM: r.distanceM,
        projectedDistanceM: r.projectedDistanceM ?? null,
        lapsDown: r.lapsDown,
        cutoff: shown
          ? {
              lap: lapNo,
              pointKey: d.pointId,
              outcome: d.outcome,
              reason: d.reason,
              deadlineMs: d.deadlineMs,
              readMs: d.readMs ?? null,
              overridden: d.overridden,
            }
          : null,
      };
    }),
    chart: top.map((i) => ({ bib: participants[i]!.bib, name: name(i), positions: positions[i]! })),
  };
  cache.set(race, { format, state: stateKey, bucket, table });
  return table;
}
