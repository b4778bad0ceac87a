import type { IngestResult } from '@tempora/contracts';
import type { Passing, PassingSource } from '@tempora/domain';
import * as repo from '../repository.ts';
import { claim, followingOf, notify, ownApplied, type ResultsCore } from './core.ts';
import { watch } from './following.ts';
import { schedule } from './publication.ts';
import { context, invalidate, state } from './state.ts';

/**
 * Ingest of reads (issue 30, split from service.ts): a batch is stored durably first, then
 * applied and published behind the acknowledgement — or, on a node that does not publish the
 * context, left to the publisher (see following.ts).
 */

export interface IncomingPassing {
  id?: string | undefined;
  bib?: string | undefined;
  chip?: string | undefined;
  pointKey: string;
  timeMs: number;
  deleted?: boolean | undefined;
}

/**
 * A read as stored. Without an id of its own, a read is named by its runner, point and time
 * (`c:<chip>@<point>@<ms>` or `b:<bib>@…`), so the same read sent twice — a decoder's rewind, a
 * file imported again — is one passing.
 */
export function toPassing(
  p: IncomingPassing,
  source: PassingSource,
  meta: { deviceId?: string | null; createdBy?: string | null } = {},
): Passing & { createdBy: string | null } {
  const runner = p.chip ? `c:${p.chip}` : `b:${p.bib}`;
  return {
    id: p.id ?? `${runner}@${p.pointKey}@${p.timeMs}`,
    pointId: p.pointKey,
    timeMs: p.timeMs,
    source,
    createdBy: meta.createdBy ?? null,
    ...(p.bib ? { bib: p.bib } : {}),
    ...(p.chip ? { chip: p.chip } : {}),
    ...(meta.deviceId ? { device: meta.deviceId } : {}),
    ...(p.deleted ? { deleted: true } : {}),
  };
}

/**
 * Stores a batch of reads durably (one statement, one transaction) and only then applies and
 * publishes them — or, on a node that does not publish the context, tells the publisher,
 * which publishes them, and applies them with its publication. Duplicates (same id) are
 * counted, not applied twice.
 */
export async function ingest(
  core: ResultsCore,
  db: string,
  incoming: readonly IncomingPassing[],
  source: PassingSource,
  meta: { deviceId?: string | null; createdBy?: string | null } = {},
): Promise<IngestResult> {
  const { cluster, database } = core;
  const ctx = await (cluster ? context(core, db) : state(core, db));
  return core.mutex.run(db, async () => {
    const rows = incoming.map((p) => toPassing(p, source, meta));
    const stored = await database.transaction((sql) => repo.insertPassings(sql, db, rows));
    if (stored.length) notify(core, (o) => o.stored?.(db, stored));
    // Issue 20, one publisher per context: a node that does not hold the context's lease
    // (and cannot take it) leaves its reads to the publisher, which hears of them, reads them
    // and publishes them in its own chain; this node applies them when that publication
    // comes (see `followerState`). Asked once the reads are stored: nothing acknowledged
    // waits for Redis, and a publisher that dies now leaves them to the next one.
    if (cluster && !(await claim(core, db))) {
      if (stored.length) {
        const f = followingOf(core, db);
        f.own = Math.max(f.own, stored[stored.length - 1]!.seq);
        f.ownRows.push(...stored);
        cluster.send({ kind: 'stored', db, seq: f.own });
        watch(core, db);
      }
      return { accepted: stored.length, duplicates: incoming.length - stored.length };
    }
    // Durable now: the answer does not wait for the results. Applying and publishing run in
    // order behind the ack (`ctx.applying`); every read waits for them (see `state`).
    // Passings other nodes stored meanwhile come first, so seq order holds. When ours follow
    // the highest seq this node knows without a gap, nobody else wrote: skip the read-back.
    const known = ctx.knownSeq;
    const contiguous = stored.every((p, k) => p.seq === known + 1 + k);
    const earlier = contiguous ? [] : await repo.passingsAfter(database, db, known);
    const storedIds = new Set(stored.map((s) => s.seq));
    const all = [...earlier.filter((p) => !storedIds.has(p.seq)), ...stored].sort((a, b) => a.seq - b.seq);
    if (all.length) ctx.knownSeq = Math.max(known, all[all.length - 1]!.seq);
    ctx.applying = ctx.applying.then(async () => {
      try {
        // Applied now (reads answer it), published with the window's other changes.
        const changes = ctx.stage(all);
        if (!core.stagedSince.has(db)) core.stagedSince.set(db, Date.now());
        notify(core, (o) => o.applied?.(ctx, stored, changes));
        // Reads this node stored while another published (it took over since).
        if (cluster && earlier.length) ownApplied(core, db, ctx, earlier, changes);
        schedule(core, db, ctx);
      } catch (error) {
        // The reads are stored: a failure here only delays them until the next rebuild.
        console.error('results: applying passings failed', error);
        invalidate(core, db);
      }
    });
    return { accepted: stored.length, duplicates: incoming.length - stored.length };
  });
}
