import crypto from 'node:crypto';
import type { CorrectionKind, ResultCorrection } from '@tempora/contracts';
import { AppError } from '../../../errors.ts';
import type { ContextState, IncomingPassing, RaceLive } from '../../results/port.ts';
import { isOfficial, recordCorrections } from '../../results/port.ts';
import type { RacedayCore } from './shared.ts';

/** The organiser's confirmation of a change to official results (issue 43): why. */
export interface Confirmed {
  reason: string;
}

/** What a correction says, before its id, time and reason are given. */
export type CorrectionNote = Omit<ResultCorrection, 'id' | 'atMs' | 'reason' | 'point'> & {
  pointKey?: string | null;
};

/**
 * The lock on official results (issue 43: "official means official"). Once a race's results are
 * published (official, or open to protests), a change that would move them — a desk entry, a
 * correction of a read, a status, a start time, a chip, an import — is refused with 409
 * `RACE_OFFICIAL` (the desk asks the organiser) unless it comes confirmed as a correction with a
 * reason; a confirmed one is kept as a correction spectators see ("Corrected on …") and webhooks
 * receive. A device's reads of an official race are held: stored as voided reads (the raw read is
 * never lost, the results do not move) with an audit entry, until the organiser restores one — a
 * correction like any other. Decision: held rather than refused, because a decoder refused would
 * send the read again and again, and a late read is the organiser's to judge.
 */
export function createLock(core: RacedayCore) {
  const { database, svc } = core;

  /** The published races of a context (none: nothing to lock). */
  function officialRaces(ctx: ContextState): Set<string> {
    const out = new Set<string>();
    for (const race of ctx.races.values()) if (isOfficial(race.row.rules)) out.add(race.row.id);
    return out;
  }

  /** The official race a read's runner runs in, if any. */
  function officialOf(ctx: ContextState, official: Set<string>, read: Pick<IncomingPassing, 'bib' | 'chip'>) {
    if (!official.size) return undefined;
    const race = ctx.raceOf({
      ...(read.bib ? { bib: read.bib } : {}),
      ...(read.chip ? { chip: read.chip } : {}),
    });
    return race && official.has(race.row.id) ? race : undefined;
  }

  function refused(race: RaceLive) {
    return new AppError(
      409,
      'RACE_OFFICIAL',
      `The results of '${race.row.name}' are official: confirm the change as a correction with a reason, or re-open them as provisional`,
      [
        { field: 'raceId', message: race.row.id },
        { field: 'race', message: race.row.name },
      ],
    );
  }

  /**
   * Throws 409 `RACE_OFFICIAL` when one of these races (ids) is published and the change is not
   * confirmed; returns the published ones (for the corrections to record).
   */
  async function guardRaces(db: string, raceIds: Iterable<string>, confirmed?: Confirmed) {
    const ctx = await svc.state(db);
    const official = officialRaces(ctx);
    const touched: RaceLive[] = [];
    for (const id of new Set(raceIds)) {
      const race = ctx.races.get(id);
      if (race && official.has(id)) {
        if (!confirmed) throw refused(race);
        touched.push(race);
      }
    }
    return touched;
  }

  /** `guardRaces` for the runners of some reads. */
  async function guardReads(
    db: string,
    reads: readonly Pick<IncomingPassing, 'bib' | 'chip'>[],
    confirmed?: Confirmed,
  ) {
    const ctx = await svc.state(db);
    const official = officialRaces(ctx);
    if (!official.size) return [];
    const ids = new Set<string>();
    for (const r of reads) {
      const race = officialOf(ctx, official, r);
      if (race) ids.add(race.row.id);
    }
    return guardRaces(db, ids, confirmed);
  }

  /**
   * A device's reads with those of published races held (stored with their void marker), and the held
   * ones for the audit trail. Costs nothing while no race of the context is published.
   */
  async function holdDeviceReads(db: string, reads: readonly IncomingPassing[]) {
    const ctx = await svc.state(db);
    const official = officialRaces(ctx);
    if (!official.size) return { reads, held: [] as { read: IncomingPassing; race: RaceLive }[] };
    const held: { read: IncomingPassing; race: RaceLive }[] = [];
    // The read and its void marker in one batch: the raw read is kept (the desk lists it voided,
    // to restore), the results never count it meanwhile.
    const out = reads.flatMap((r) => {
      const race = r.deleted ? undefined : officialOf(ctx, official, r);
      if (!race) return [r];
      held.push({ read: r, race });
      return [r, { ...r, deleted: true }];
    });
    return { reads: out, held };
  }

  /**
   * Keeps confirmed corrections (in the races' rules, their epochs bumped), then the one reload
   * command (pages and cards show them) and the webhooks' `results.corrected`.
   */
  async function record(db: string, confirmed: Confirmed | undefined, notes: readonly CorrectionNote[]) {
    if (!confirmed || !notes.length) return;
    const ctx = await svc.state(db);
    const atMs = Date.now();
    const list: ResultCorrection[] = notes.map(({ pointKey, ...n }) => {
      const point = pointKey ? ctx.races.get(n.raceId)?.points.find((p) => p.key === pointKey) : undefined;
      return {
        ...n,
        id: crypto.randomUUID(),
        atMs,
        reason: confirmed.reason,
        point: point ? { name: point.name, ...(point.nameFr ? { nameFr: point.nameFr } : {}) } : null,
      };
    });
    await database.transaction((sql) => recordCorrections(sql, list));
    await svc.reload(db, { bibs: [...new Set(list.flatMap((c) => (c.bib ? [c.bib] : [])))] });
    await svc.announceCorrections(db, list);
  }

  /** A note about one runner of a race (their name as the live state knows it). */
  function note(
    race: RaceLive,
    bib: string | null,
    kind: CorrectionKind,
    extra: Partial<Pick<CorrectionNote, 'pointKey' | 'timeMs' | 'status' | 'count'>> = {},
  ): CorrectionNote {
    const i = bib === null ? undefined : race.byBib.get(bib);
    const p = i === undefined ? undefined : race.participants[i];
    return {
      raceId: race.row.id,
      kind,
      bib,
      name: p ? `${p.firstName} ${p.lastName}` : null,
      pointKey: extra.pointKey ?? null,
      timeMs: extra.timeMs ?? null,
      status: extra.status ?? null,
      count: extra.count ?? null,
    };
  }

  return { guardRaces, guardReads, holdDeviceReads, record, note, officialRaces };
}

export type Lock = ReturnType<typeof createLock>;
