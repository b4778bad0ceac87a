/**
 * The race-day service (issue 15): manual entry, corrections with an audit trail, participant
 * statuses, start control and the unknown-chips list, on top of the results service.
 *
 * Decisions (the results engine's rules, packages/domain/src/results/README.md):
 * - Reads are never deleted. Voiding a read stores its void marker (the same read with
 *   `deleted`), which removes it for good in the engine. Restoring a voided read therefore stores
 *   a new read (id `r:<audit id>`) of the same runner and point 1 ms later: the engine drops every
 *   read at a voided read's millisecond, and 1 ms changes no displayed time.
 * - Changing a read's time or point voids it and stores the replacement (`e:<audit id>`); adding
 *   a missing read stores `a:<audit id>`. Undo reverses an action by the opposite one, audited too.
 * - A manual entry's id is `m:<client id>`: a retry (an offline desk sending again) is one read.
 * - Statuses, gun/wave/individual start times and chip assignments change participants or races:
 *   the race's epoch is bumped and the results module's reload command run (`app.results.reload`:
 *   the state forgotten on every node, every watched report told to reload, then a correction),
 *   so public tables and tracking cards follow within a second.
 * - Any read of a runner marked DNS clears the DNS: they did start.
 */
import crypto from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { ContextState, IncomingPassing, ParticipantRow, Results } from '../results/port.ts';
import * as results from '../results/port.ts';
import * as desk from './desk-repository.ts';

export type RunnerStatus = 'registered' | 'DNS' | 'DNF' | 'DSQ';

/** Races whose epoch a change bumped, and how it changed their participants (a copy, never in place). */
interface ParticipantsChange {
  raceIds: string[];
  edit?: (p: ParticipantRow) => ParticipantRow | undefined;
}

/** A participant with a changed field (an absent optional field stays absent). */
function withField<K extends keyof ParticipantRow>(
  p: ParticipantRow,
  key: K,
  value: ParticipantRow[K] | null,
): ParticipantRow {
  const copy = { ...p };
  if (value === null || value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

export interface ManualEntry {
  clientId: string;
  bib: string;
  pointKey: string;
  timeMs: number;
}

export function createRacedayService(deps: { database: Database; results: Results }) {
  const { database } = deps;
  const svc = deps.results;
  /** The results module's one reload command (issue 26). */
  const reloads = svc;
  /** The DNS clearing queued behind device reads, per context. */
  const dnsChecks = new Map<string, Promise<void>>();

  /** Rebuilds a context's live state and tells every open table and card to reload (one command). */
  async function refresh(db: string, bibs: string[], change?: ParticipantsChange) {
    const old = await svc.state(db);
    const preset = change ? await presetParticipants(db, old, change) : undefined;
    await reloads.reload(db, { bibs, ...(preset ? { participants: preset } : {}) });
  }

  /**
   * The context's participants as now stored, from the live state and this change, so the
   * rebuild skips reading them — only when nobody else changed them meanwhile: every race's
   * epoch is the state's, plus one for each race this change bumped. Otherwise undefined (read).
   */
  async function presetParticipants(db: string, old: ContextState, change: ParticipantsChange) {
    const epochs = await database.query<{ id: string; epoch: number }>(
      'SELECT id, epoch FROM races WHERE db = $1',
      [db],
    );
    const bumped = new Set(change.raceIds);
    const consistent =
      epochs.length === old.races.size &&
      epochs.every((r) => {
        const live = old.races.get(r.id);
        return live !== undefined && r.epoch === live.row.epoch + (bumped.has(r.id) ? 1 : 0);
      });
    if (!consistent) return undefined;
    const out: ParticipantRow[] = [];
    for (const race of old.races.values()) for (const p of race.participants) out.push(change.edit?.(p) ?? p);
    return out;
  }

  /** Who a bib or chip is in the live state. */
  async function runner(db: string, p: { bib?: string | null; chip?: string | null }) {
    const ctx = await svc.state(db);
    const race = ctx.raceOf({ ...(p.bib ? { bib: p.bib } : {}), ...(p.chip ? { chip: p.chip } : {}) });
    if (!race) return null;
    const i = p.chip ? race.byChip.get(p.chip) : race.byBib.get(p.bib ?? '');
    if (i === undefined) return null;
    const person = race.participants[i]!;
    return {
      raceId: race.row.id,
      bib: person.bib,
      name: `${person.firstName} ${person.lastName}`,
      status: person.status as RunnerStatus,
    };
  }

  /**
   * Stores reads (any source: devices through the front door, the desk, result imports) and clears
   * the DNS of runners they show started.
   */
  async function ingest(
    db: string,
    reads: readonly IncomingPassing[],
    source: 'decoder' | 'manual' | 'import',
    meta: { deviceId?: string | null; createdBy?: string | null },
    /** `settle`: answer only once the DNS clearing is done (HTTP ingest), as for the desk. */
    opts: { settle?: boolean } = {},
  ) {
    const out = await svc.ingest(db, reads, source, meta);
    if (source !== 'decoder' || opts.settle) await clearStarted(db, reads);
    else {
      // Off a device's acknowledgement path (it waits for the live state): the reads are stored
      // already; clearing DNS follows in order per context, and the next read retries a failure.
      const previous = dnsChecks.get(db) ?? Promise.resolve();
      const next = previous.then(() => clearStarted(db, reads)).catch(() => undefined);
      dnsChecks.set(db, next);
      void next.then(() => dnsChecks.get(db) === next && dnsChecks.delete(db));
    }
    return out;
  }

  /** Clears the DNS of the runners these stored reads show started. */
  async function clearStarted(db: string, reads: readonly IncomingPassing[]) {
    const started = new Map<string, { raceId: string; bib: string }>();
    const ctx = await svc.state(db);
    for (const r of reads) {
      if (r.deleted) continue;
      const race = ctx.raceOf({ ...(r.bib ? { bib: r.bib } : {}), ...(r.chip ? { chip: r.chip } : {}) });
      const i = race && (r.chip ? race.byChip.get(r.chip) : race.byBib.get(r.bib ?? ''));
      if (race && i !== undefined && race.participants[i]!.status === 'DNS') {
        const bib = race.participants[i]!.bib;
        started.set(`${race.row.id}/${bib}`, { raceId: race.row.id, bib });
      }
    }
    if (started.size) {
      await database.transaction(async (sql) => {
        for (const s of started.values()) {
          await sql.query(
            `UPDATE participants SET status = 'registered', status_reason = NULL WHERE race_id = $1 AND bib = $2`,
            [s.raceId, s.bib],
          );
          await desk.insertAudit(sql, {
            id: crypto.randomUUID(),
            db,
            action: 'status',
            bib: s.bib,
            raceId: s.raceId,
            before: { status: 'DNS' },
            after: { status: 'registered' },
            reason: 'a read shows the runner started',
            actor: null,
          });
        }
        await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = ANY($1::text[])', [
          [...new Set([...started.values()].map((s) => s.raceId))],
        ]);
      });
      const keys = new Set([...started.keys()]);
      await refresh(
        db,
        [...started.values()].map((s) => s.bib),
        {
          raceIds: [...new Set([...started.values()].map((s) => s.raceId))],
          edit: (p) => (keys.has(`${p.raceId}/${p.bib}`) ? withField(p, 'status', 'registered') : undefined),
        },
      );
    }
  }

  async function requireRead(db: string, passingId: string) {
    const read = await desk.findRead(database, db, passingId);
    if (!read) throw errors.notFound('PASSING_NOT_FOUND', `No read '${passingId}' in '${db}'`);
    return read;
  }

  const asIncoming = (r: desk.DeskReadRow, over: Partial<IncomingPassing> = {}): IncomingPassing => ({
    id: r.id,
    ...(r.bib ? { bib: r.bib } : {}),
    ...(r.chip ? { chip: r.chip } : {}),
    pointKey: r.pointKey,
    timeMs: r.timeMs,
    ...over,
  });

  const publishCorrection = (db: string, bibs: (string | null)[]) => reloads.correction(db, bibs);

  async function voidRead(
    db: string,
    passingId: string,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const read = await requireRead(db, passingId);
    if (read.voided) throw errors.conflict('PASSING_VOIDED', 'This read is voided already');
    const id = crypto.randomUUID();
    const bib = read.bib ?? (await runner(db, read))?.bib ?? null;
    await svc.ingest(
      db,
      [asIncoming(read, { deleted: true })],
      read.source === 'manual' ? 'manual' : 'decoder',
      {
        deviceId: read.deviceId,
        createdBy: actor,
      },
    );
    // Readers first (a tracking card refetches on it), then the audit entry.
    await publishCorrection(db, [bib]);
    await desk.insertAudit(database, {
      id,
      db,
      action: 'void',
      passingId,
      bib,
      before: read,
      reason,
      actor,
      undoOf: undoOf ?? null,
    });
    return { auditId: id };
  }

  async function restoreRead(
    db: string,
    passingId: string,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const read = await requireRead(db, passingId);
    if (!read.voided) throw errors.conflict('PASSING_NOT_VOIDED', 'This read is not voided');
    const id = crypto.randomUUID();
    const bib = read.bib ?? (await runner(db, read))?.bib ?? null;
    const restored = asIncoming(read, { id: `r:${id}`, timeMs: read.timeMs + 1 });
    await svc.ingest(db, [restored], 'manual', { createdBy: actor });
    await publishCorrection(db, [bib]);
    await desk.insertAudit(database, {
      id,
      db,
      action: 'restore',
      passingId,
      bib,
      before: read,
      after: { id: restored.id, timeMs: restored.timeMs },
      reason,
      actor,
      undoOf: undoOf ?? null,
    });
    return { auditId: id, passingId: restored.id };
  }

  async function setStatus(
    db: string,
    raceId: string,
    bib: string,
    status: RunnerStatus,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const rows = await database.query<{ status: RunnerStatus; reason: string | null }>(
      `SELECT p.status, p.status_reason AS reason FROM participants p JOIN races r ON r.id = p.race_id
        WHERE r.db = $1 AND p.race_id = $2 AND p.bib = $3`,
      [db, raceId, bib],
    );
    const before = rows[0];
    if (!before) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No bib '${bib}' in race '${raceId}'`);
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      await sql.query(
        'UPDATE participants SET status = $3, status_reason = $4 WHERE race_id = $1 AND bib = $2',
        [raceId, bib, status, status === 'registered' ? null : reason],
      );
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'status',
        bib,
        raceId,
        before,
        after: { status, reason },
        reason,
        actor,
        undoOf: undoOf ?? null,
      });
    });
    await refresh(db, [bib], {
      raceIds: [raceId],
      edit: (p) => (p.raceId === raceId && p.bib === bib ? withField(p, 'status', status) : undefined),
    });
    return { auditId: id };
  }

  async function requireRaceOf(db: string, raceId: string) {
    const race = (await results.racesOf(database, db)).find((r) => r.id === raceId);
    if (!race) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}' in '${db}'`);
    return race;
  }

  async function setGun(
    db: string,
    raceId: string,
    gunTimeMs: number | null,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const race = await requireRaceOf(db, raceId);
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      await sql.query('UPDATE races SET gun_time_ms = $2, epoch = epoch + 1 WHERE id = $1', [
        raceId,
        gunTimeMs,
      ]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'gun',
        raceId,
        before: { gunTimeMs: race.gunTimeMs },
        after: { gunTimeMs },
        reason,
        actor,
        undoOf: undoOf ?? null,
      });
    });
    await refresh(db, [], { raceIds: [raceId] });
    return { auditId: id, gunTimeMs };
  }

  async function setWave(
    db: string,
    raceId: string,
    waveId: string,
    startTime: number,
    reason: string,
    actor: string | null,
    undoOf?: string,
  ) {
    const race = await requireRaceOf(db, raceId);
    const waves = race.waves.some((w) => w.id === waveId)
      ? race.waves.map((w) => (w.id === waveId ? { ...w, startTime } : w))
      : [...race.waves, { id: waveId, startTime }];
    const id = crypto.randomUUID();
    await database.transaction(async (sql) => {
      await sql.query('UPDATE races SET waves = $2, epoch = epoch + 1 WHERE id = $1', [
        raceId,
        JSON.stringify(waves),
      ]);
      await desk.insertAudit(sql, {
        id,
        db,
        action: 'wave',
        raceId,
        before: { waves: race.waves },
        after: { waves },
        reason,
        actor,
        undoOf: undoOf ?? null,
      });
    });
    await refresh(db, [], { raceIds: [raceId] });
    return { auditId: id };
  }

  return {
    ingest,
    refresh,
    runner,

    /** Manual entries (desk, offline queue): one read per client id, whatever the retries. */
    async manual(db: string, entries: readonly ManualEntry[], actor: string | null) {
      const out = await ingest(
        db,
        entries.map((e) => ({ id: `m:${e.clientId}`, bib: e.bib, pointKey: e.pointKey, timeMs: e.timeMs })),
        'manual',
        { createdBy: actor },
      );
      const ctx = await svc.state(db);
      return {
        ...out,
        entries: entries.map((e) => {
          const race = ctx.raceOf({ bib: e.bib });
          const i = race?.byBib.get(e.bib);
          const p = race && i !== undefined ? race.participants[i]! : null;
          return {
            clientId: e.clientId,
            passingId: `m:${e.clientId}`,
            known: p !== null,
            name: p ? `${p.firstName} ${p.lastName}` : null,
          };
        }),
      };
    },

    voidRead,
    restoreRead,

    /** Changes a read's time and/or point: the read is voided and its replacement stored. */
    async editRead(
      db: string,
      passingId: string,
      change: { timeMs?: number | undefined; pointKey?: string | undefined },
      reason: string,
      actor: string | null,
    ) {
      const read = await requireRead(db, passingId);
      if (read.voided)
        throw errors.conflict('PASSING_VOIDED', 'A voided read cannot be changed; restore it first');
      const id = crypto.randomUUID();
      const bib = read.bib ?? (await runner(db, read))?.bib ?? null;
      const replacement = asIncoming(read, {
        id: `e:${id}`,
        timeMs: change.timeMs ?? read.timeMs,
        pointKey: change.pointKey ?? read.pointKey,
      });
      if (replacement.timeMs === read.timeMs && replacement.pointKey === read.pointKey)
        throw errors.badRequest('NOTHING_CHANGED', 'The new time and point equal the old ones');
      // The void marker first, then the replacement: in one batch, one transaction.
      await svc.ingest(db, [asIncoming(read, { deleted: true }), replacement], 'manual', {
        createdBy: actor,
      });
      await publishCorrection(db, [bib]);
      await desk.insertAudit(database, {
        id,
        db,
        action: 'edit',
        passingId,
        bib,
        before: read,
        after: { id: replacement.id, timeMs: replacement.timeMs, pointKey: replacement.pointKey },
        reason,
        actor,
      });
      return { auditId: id, passingId: replacement.id };
    },

    /** Adds a missing read (a runner the mat missed). */
    async addRead(
      db: string,
      read: { bib: string; pointKey: string; timeMs: number },
      reason: string,
      actor: string | null,
    ) {
      const id = crypto.randomUUID();
      await ingest(db, [{ id: `a:${id}`, ...read }], 'manual', { createdBy: actor });
      await publishCorrection(db, [read.bib]);
      await desk.insertAudit(database, {
        id,
        db,
        action: 'add',
        passingId: `a:${id}`,
        bib: read.bib,
        after: read,
        reason,
        actor,
      });
      return { auditId: id, passingId: `a:${id}` };
    },

    setStatus,
    setGun,
    setWave,

    /** Individual start times (time trials): one audit entry for the list. */
    async setStarts(
      db: string,
      raceId: string,
      starts: { bib: string; startTimeMs: number | null }[],
      reason: string,
      actor: string | null,
    ) {
      await requireRaceOf(db, raceId);
      const id = crypto.randomUUID();
      await database.transaction(async (sql) => {
        const before = await sql.query<{ bib: string; startTimeMs: number | null }>(
          `SELECT bib, start_time_ms::float8 AS "startTimeMs" FROM participants WHERE race_id = $1 AND bib = ANY($2::text[])`,
          [raceId, starts.map((s) => s.bib)],
        );
        if (before.length !== new Set(starts.map((s) => s.bib)).size)
          throw errors.badRequest('PARTICIPANT_NOT_FOUND', 'Some bibs are not in this race');
        await sql.query(
          `UPDATE participants p SET start_time_ms = u.t::bigint
             FROM unnest($2::text[], $3::float8[]) AS u(bib, t) WHERE p.race_id = $1 AND p.bib = u.bib`,
          [raceId, starts.map((s) => s.bib), starts.map((s) => s.startTimeMs)],
        );
        await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
        await desk.insertAudit(sql, {
          id,
          db,
          action: 'starts',
          raceId,
          before,
          after: starts,
          reason,
          actor,
        });
      });
      const at = new Map(starts.map((s) => [s.bib, s.startTimeMs]));
      await refresh(
        db,
        starts.map((s) => s.bib),
        {
          raceIds: [raceId],
          edit: (p) =>
            p.raceId === raceId && at.has(p.bib) ? withField(p, 'startTime', at.get(p.bib)!) : undefined,
        },
      );
      return { auditId: id, updated: starts.length };
    },

    /** Gives an unknown chip to a participant (a chip swap on race day). */
    async assignChip(db: string, chip: string, raceId: string, bib: string, actor: string | null) {
      const id = crypto.randomUUID();
      await database.transaction(async (sql) => {
        const updated = await sql.query(
          `UPDATE participants p SET chips = array_append(p.chips, $3) FROM races r
            WHERE r.id = p.race_id AND r.db = $4 AND p.race_id = $1 AND p.bib = $2 AND NOT ($3 = ANY(p.chips))
            RETURNING p.bib`,
          [raceId, bib, chip, db],
        );
        if (!updated.length)
          throw errors.notFound(
            'PARTICIPANT_NOT_FOUND',
            `No bib '${bib}' in race '${raceId}' (or it has this chip)`,
          );
        await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
        await desk.insertAudit(sql, {
          id,
          db,
          action: 'assign',
          raceId,
          bib,
          after: { chip },
          reason: '',
          actor,
        });
      });
      await refresh(db, [bib], {
        raceIds: [raceId],
        edit: (p) =>
          p.raceId === raceId && p.bib === bib
            ? withField(p, 'chips', [...(p.chips ?? []), chip])
            : undefined,
      });
      return { auditId: id };
    },

    /** Undoes an audited action by its opposite (itself audited). */
    async undo(db: string, auditId: string, reason: string, actor: string | null) {
      const entry = await desk.findAudit(database, db, auditId);
      if (!entry) throw errors.notFound('AUDIT_NOT_FOUND', `No action '${auditId}'`);
      if (entry.undoneBy) throw errors.conflict('ALREADY_UNDONE', 'This action was undone already');
      const before = (entry.before ?? {}) as Record<string, unknown>;
      const after = (entry.after ?? {}) as Record<string, unknown>;
      switch (entry.action) {
        case 'void':
          return restoreRead(db, entry.passingId!, reason, actor, auditId);
        case 'restore':
          return voidRead(db, String(after.id), reason, actor, auditId);
        case 'add':
          return voidRead(db, entry.passingId!, reason, actor, auditId);
        case 'edit': {
          const undone = await voidRead(db, String(after.id), reason, actor, auditId);
          await restoreRead(db, entry.passingId!, reason, actor);
          return undone;
        }
        case 'status':
          return setStatus(
            db,
            entry.raceId!,
            entry.bib!,
            before.status as RunnerStatus,
            reason,
            actor,
            auditId,
          );
        case 'gun':
          return setGun(
            db,
            entry.raceId!,
            (before.gunTimeMs as number | null) ?? null,
            reason,
            actor,
            auditId,
          );
        default:
          throw errors.badRequest('UNDO_UNSUPPORTED', `A '${entry.action}' action is undone by hand`);
      }
    },

    /** Reads whose chip or bib is no participant's, most reads first. */
    async unknownRunners(db: string) {
      const ctx = await svc.state(db);
      const rows = await desk.readRunners(database, db);
      return rows
        .filter((r) => !ctx.raceOf({ ...(r.bib ? { bib: r.bib } : {}), ...(r.chip ? { chip: r.chip } : {}) }))
        .sort((a, b) => b.reads - a.reads)
        .slice(0, 200);
    },
  };
}

export type RacedayService = ReturnType<typeof createRacedayService>;
