import crypto from 'node:crypto';
import { type IncomingPassing, toPassing } from '../../results/port.ts';
import * as desk from '../desk-repository.ts';
import type { Confirmed, Lock } from './lock.ts';
import { type RacedayCore, withField } from './shared.ts';

export interface ManualEntry {
  clientId: string;
  bib: string;
  pointKey: string;
  timeMs: number;
}

/**
 * Reads coming in (issue 15): from devices, the desk's manual entries (one read per client id)
 * and result imports, stored by the results service; any read of a runner marked DNS clears the
 * DNS (in order per context, off a device's acknowledgement path).
 */
export function createIngest(core: RacedayCore, lock: Lock) {
  const { database, svc, refresh } = core;
  /** The DNS clearing queued behind device reads, per context. */
  const dnsChecks = new Map<string, Promise<void>>();

  /**
   * Stores reads (any source: devices through the front door, the desk, result imports) and clears
   * the DNS of runners they show started.
   */
  async function ingest(
    db: string,
    reads: readonly IncomingPassing[],
    source: 'decoder' | 'manual' | 'import',
    meta: { deviceId?: string | null; createdBy?: string | null },
    /**
     * `settle`: answer only once the DNS clearing is done (HTTP ingest), as for the desk;
     * `confirmed`: the organiser's correction of official results (issue 43, ./lock.ts).
     */
    opts: { settle?: boolean; confirmed?: Confirmed | undefined } = {},
  ) {
    // Issue 43: a device's reads of an official race are held (stored voided, audited); any other
    // read of one needs the organiser's confirmation (409 RACE_OFFICIAL otherwise).
    let held: Awaited<ReturnType<Lock['holdDeviceReads']>>['held'] = [];
    if (source === 'decoder') ({ reads, held } = await lock.holdDeviceReads(db, reads));
    else await lock.guardReads(db, reads, opts.confirmed);
    const out = await svc.ingest(db, reads, source, meta);
    if (held.length) await auditHeld(db, held, meta.deviceId ?? null);
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

  /** The held reads in the desk's trail: the organiser restores one to count it (a correction). */
  async function auditHeld(
    db: string,
    held: Awaited<ReturnType<Lock['holdDeviceReads']>>['held'],
    deviceId: string | null,
  ) {
    await database.transaction(async (sql) => {
      for (const { read, race } of held)
        await desk.insertAudit(sql, {
          id: crypto.randomUUID(),
          db,
          action: 'hold',
          passingId: toPassing(read, 'decoder').id,
          bib:
            read.bib ?? (read.chip ? race.participants[race.byChip.get(read.chip) ?? -1]?.bib : null) ?? null,
          raceId: race.row.id,
          after: { pointKey: read.pointKey, timeMs: read.timeMs, deviceId },
          reason: `held: the results of '${race.row.name}' are official`,
          actor: null,
        });
    });
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

  /**
   * Manual entries (desk, offline queue): one read per client id, whatever the retries. Entries of
   * an official race need the organiser's confirmation and are kept as corrections (issue 43).
   */
  async function manual(
    db: string,
    entries: readonly ManualEntry[],
    actor: string | null,
    confirmed?: Confirmed,
  ) {
    const out = await ingest(
      db,
      entries.map((e) => ({ id: `m:${e.clientId}`, bib: e.bib, pointKey: e.pointKey, timeMs: e.timeMs })),
      'manual',
      { createdBy: actor },
      { confirmed },
    );
    const ctx = await svc.state(db);
    if (confirmed && out.accepted) {
      const official = lock.officialRaces(ctx);
      await lock.record(
        db,
        confirmed,
        entries.flatMap((e) => {
          const race = ctx.raceOf({ bib: e.bib });
          return race && official.has(race.row.id)
            ? [lock.note(race, e.bib, 'added', { pointKey: e.pointKey, timeMs: e.timeMs })]
            : [];
        }),
      );
    }
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
  }

  return { ingest, manual };
}

export type Ingest = ReturnType<typeof createIngest>;
