import crypto from 'node:crypto';
import type { IncomingPassing } from '../../results/port.ts';
import * as desk from '../desk-repository.ts';
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
export function createIngest(core: RacedayCore) {
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

  /** Manual entries (desk, offline queue): one read per client id, whatever the retries. */
  async function manual(db: string, entries: readonly ManualEntry[], actor: string | null) {
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
  }

  return { ingest, manual };
}

export type Ingest = ReturnType<typeof createIngest>;
