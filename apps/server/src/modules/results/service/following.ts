import type { ContextState } from '../context-state.ts';
import * as repo from '../repository.ts';
import {
  type ClusterNotice,
  claim,
  followingOf,
  MIN_VERSION_WAIT_MS,
  ownApplied,
  publishes,
  type ResultsCore,
  STALE_MS,
} from './core.ts';
import { flush } from './publication.ts';
import { catchUp, context, freshCatchUp } from './state.ts';

/**
 * Cluster following (issue 30, split from service.ts): with a `cluster` (several nodes on Redis),
 * one node at a time publishes a context's changes — the holder of its lease — and the others
 * follow its publications (issue 20: one publisher per change, so that subscribers' patches form
 * one chain; docs/deployment.md). Without a cluster none of this runs.
 */

/**
 * `state` on a node that does not publish the context (issue 20). Its state moves only as the
 * publisher's does: at each publication it hears of, it reads the passings up to the
 * publication's seq and takes its report versions (`follow`), so that a reader here gets a
 * version the publisher's next patch starts from. The reads this node stores wait for the
 * publisher too (it publishes them within its window, usually a few hundred ms): a read here
 * waits until this node's own stored reads are in (read-your-writes), a `minVersion` read until
 * that version, a `fresh` one until every publication heard before it — each at most
 * MIN_VERSION_WAIT_MS. Meanwhile it claims the lease (asked of Redis once per recheck: free once
 * its holder's connection is gone or it expired), and past that the publisher is presumed gone:
 * when this node gets the lease it catches up as the publisher. Nothing heard for STALE_MS: a reader
 * checks the lease (a publisher that died with reads stored and nobody storing more).
 */
export async function followerState(
  core: ResultsCore,
  db: string,
  ctx: ContextState,
  minVersion: number,
  fresh: boolean,
): Promise<ContextState> {
  const f = followingOf(core, db);
  const target = Math.max(minVersion, f.own, fresh ? f.announced : 0);
  if (target > ctx.lastSeq) {
    const deadline = Date.now() + MIN_VERSION_WAIT_MS;
    while (target > ctx.lastSeq && Date.now() < deadline && !publishes(core, db)) {
      await new Promise((r) => setTimeout(r, 20));
      // A publisher killed is found gone within a recheck (publisher-lease.ts, issue 28): this
      // node takes over then, not at the deadline (a read waited 1.5 s after a kill before).
      if (target > ctx.lastSeq && (await claim(core, db))) break;
    }
    if (target > ctx.lastSeq && (await claim(core, db))) {
      await catchUp(core, db, ctx);
      await ctx.applying;
      flush(core, db, ctx);
    }
    return ctx;
  }
  const now = Date.now();
  if (now - f.heardAt > STALE_MS && now - f.checkedAt > STALE_MS) {
    f.checkedAt = now;
    void claim(core, db)
      .then((mine) => (mine ? catchUp(core, db, ctx) : undefined))
      .catch(() => undefined);
  }
  return ctx;
}

/**
 * A publication heard from the publisher (see `ClusterNotice`): this node reads the passings up
 * to its seq and takes its versions. A node ahead of it (it read the database itself, or it
 * published until now) takes nothing and catches up at a later publication.
 */
function follow(core: ResultsCore, db: string, seq: number, versions: Record<string, number>): void {
  const { loaded, database } = core;
  const f = followingOf(core, db);
  f.announced = Math.max(f.announced, seq);
  f.heardAt = Date.now();
  const pending = loaded.get(db);
  if (!pending || publishes(core, db)) return;
  void pending
    .then((ctx) =>
      core.mutex.run(db, async () => {
        if (publishes(core, db) || ctx.lastSeq > seq || loaded.get(db) !== pending) return;
        if (ctx.lastSeq < seq) {
          const newer = (await repo.passingsAfter(database, db, ctx.lastSeq)).filter((p) => p.seq <= seq);
          await ctx.applying;
          if (newer.length) ownApplied(core, db, ctx, newer, ctx.stage(newer, false));
        }
        if (ctx.lastSeq === seq) ctx.adoptVersions(versions);
        core.caughtUpAt.set(db, Date.now());
      }),
    )
    .catch((error) => console.error('results: following the publisher failed', error));
}

/**
 * A follower's reads not published within the lease's time: the publisher is gone or did not
 * hear of them. It claims the lease (free once the holder stopped renewing it) and publishes
 * them itself, else it tells the publisher again; until they are in.
 */
export function watch(core: ResultsCore, db: string): void {
  const f = followingOf(core, db);
  if (f.watch || !core.cluster) return;
  const { send } = core.cluster;
  f.watch = setTimeout(() => {
    f.watch = undefined;
    void (async () => {
      const ctx = await context(core, db);
      if (f.own <= ctx.lastSeq) return;
      if (await claim(core, db)) await catchUp(core, db, ctx);
      else send({ kind: 'stored', db, seq: f.own });
      watch(core, db);
    })().catch((error) => console.error('results: claiming the publisher lease failed', error));
  }, core.leaseMs);
  f.watch.unref?.();
}

/**
 * A notice from another node (issue 20, see `ClusterNotice`). `stored`: the publisher (or,
 * the lease being free, the first node to take it) catches up and publishes those reads.
 * `published`: a follower moves its state to the publication's.
 */
export function hear(core: ResultsCore, notice: ClusterNotice): void {
  const { cluster } = core;
  if (!cluster) return;
  if (notice.kind === 'published') {
    follow(core, notice.db, notice.seq, notice.versions);
    return;
  }
  const { db } = notice;
  if (notice.kind === 'released') {
    // The lease is free now, not when this node thought it would expire: a node with reads
    // waiting for a publication takes it at once; else the next node storing one.
    cluster.leases.forget(db);
    const f = core.following.get(db);
    if (!f?.own || !core.loaded.has(db)) return;
    void (async () => {
      const ctx = await context(core, db);
      if (f.own > ctx.lastSeq && (await claim(core, db))) await catchUp(core, db, ctx);
    })().catch((error) => console.error('results: taking over a released context failed', error));
    return;
  }
  void (async () => {
    if (!(await claim(core, db))) return;
    const ctx = await context(core, db);
    // A catch-up whose query started before these reads committed would miss them.
    if (notice.seq > ctx.lastSeq) await freshCatchUp(core, db, ctx);
    // Held already (this node loaded them, after a setup change): still announced, so
    // that the node that stored them sees them in (see `followerState`).
    await ctx.applying;
    if (publishes(core, db) && !ctx.hasPending && ctx.lastSeq > (core.announced.get(db) ?? 0))
      flush(core, db, ctx);
  })().catch((error) => console.error('results: catching up with another node failed', error));
}
