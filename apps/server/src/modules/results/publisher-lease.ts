import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { runScript } from '../../realtime/adapters/redis-scripts.ts';

/** Default time a publisher lease lasts without renewal (RESULTS_LEASE_MS). */
export const LEASE_MS = 3_000;
/** A lease not used (no ingest, no notice, no publication) for this long is given back. */
const IDLE_MS = 60_000;

/**
 * Who publishes a context's live results (issue 20: one publisher per change). Each context has
 * at most one publisher at a time across the nodes: the holder of its lease. `acquire` answers
 * `held` (this node holds it), `taken` (it was free or expired: this node holds it from now) or
 * `other` (a live node holds it).
 */
export interface PublisherLeases {
  acquire(db: string): Promise<'held' | 'taken' | 'other'>;
  /** Whether this node holds the lease, as far as it knows without asking Redis (a read's path). */
  holds(db: string): boolean;
  /** Called when a lease this node held was lost (not renewed in time, or taken over). */
  onLost(listener: (db: string) => void): void;
  /** Forgets that another node holds the lease (it said it gave it back): the next `acquire` asks. */
  forget(db: string): void;
  /** Gives every lease back (a node stopping: the next node takes over at once); the contexts. */
  releaseAll(): Promise<string[]>;
  close(): Promise<void>;
}

/** One node, or nodes without a bus between them: every node publishes what it stores. */
export const soleLeases: PublisherLeases = {
  acquire: async () => 'held',
  holds: () => true,
  onLost: () => undefined,
  forget: () => undefined,
  releaseAll: async () => [],
  close: async () => undefined,
};

/**
 * Takes the lease when it is free, renews it when this node holds it; else the holder's time left.
 * -1: taken, -2: held (renewed), n ≥ 0: another node holds it for n more ms.
 */
const ACQUIRE = `
local v = redis.call('get', KEYS[1])
if not v then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return -1
end
if v == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return -2
end
return redis.call('pttl', KEYS[1])`;

/** Renews the lease only when this node still holds it: 1 renewed, 0 lost. */
const RENEW = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0`;

/** Deletes the lease only when this node holds it. */
const RELEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0`;

/**
 * Leases in Redis (several nodes): one key per context, `{prefix}{db}` = the holder's node id,
 * set with NX and a `leaseMs` expiry, renewed every third of it while the node uses the context
 * (ingests, notices, publications; given back after a minute unused). A holder that dies stops
 * renewing: the key expires within `leaseMs` and the next node that stores a read or hears of one
 * takes it. This node counts its lease as held only until `leaseMs − leaseMs/6` after the start of
 * its last successful renewal, so it stops publishing before another node can take over (clocks
 * only run at the same speed: no shared time is assumed).
 *
 * Decision: when Redis does not answer, `acquire` says `held` — every node then publishes what it
 * stores, as before issue 20's lease (chains may break, clients refetch; nothing is lost or held
 * back). Without Redis the bus between nodes is down too, so no node could hear of another's reads.
 */
export function redisLeases(options: {
  url: string;
  prefix: string;
  log: FastifyBaseLogger;
  leaseMs?: number;
}): PublisherLeases {
  const { prefix, log } = options;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const margin = Math.ceil(leaseMs / 6);
  const node = randomUUID();
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 }).on(
    'error',
    (err) => log.warn({ err }, 'results lease: Redis error'),
  );
  /** Held leases: until when this node may publish, and when the context was last used. */
  const held = new Map<string, { until: number; used: number }>();
  /** Leases another node holds, until when (no need to ask again before). */
  const others = new Map<string, number>();
  const asking = new Map<string, Promise<'held' | 'taken' | 'other'>>();
  const lost = new Set<(db: string) => void>();
  const key = (db: string) => `${prefix}${db}`;

  const drop = (db: string) => {
    if (!held.delete(db)) return;
    for (const listener of lost) listener(db);
  };

  const renew = async () => {
    const now = Date.now();
    for (const [db, lease] of [...held]) {
      if (now - lease.used > IDLE_MS) {
        held.delete(db);
        await runScript(redis, RELEASE, key(db), [node]).catch(() => undefined);
        continue;
      }
      const started = Date.now();
      try {
        const ok = Number(await runScript(redis, RENEW, key(db), [node, leaseMs]));
        if (ok === 1) lease.until = started + leaseMs - margin;
        else drop(db);
      } catch (error) {
        // Not renewed: held until its time runs out, then another node may take it.
        log.warn({ err: error, db }, 'results lease: renewal failed');
        if (Date.now() > lease.until) drop(db);
      }
    }
  };
  const timer = setInterval(() => void renew(), Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();

  async function ask(db: string): Promise<'held' | 'taken' | 'other'> {
    const started = Date.now();
    try {
      const answer = Number(await runScript(redis, ACQUIRE, key(db), [node, leaseMs]));
      if (answer < 0) {
        others.delete(db);
        held.set(db, { until: started + leaseMs - margin, used: Date.now() });
        return answer === -1 ? 'taken' : 'held';
      }
      drop(db);
      others.set(db, started + Math.min(answer, leaseMs));
      return 'other';
    } catch (error) {
      log.warn({ err: error, db }, 'results lease: Redis unreachable, this node publishes');
      held.set(db, { until: started + leaseMs - margin, used: Date.now() });
      return 'held';
    }
  }

  return {
    async acquire(db) {
      const now = Date.now();
      const lease = held.get(db);
      if (lease && now < lease.until) {
        lease.used = now;
        return 'held';
      }
      if ((others.get(db) ?? 0) > now) return 'other';
      let pending = asking.get(db);
      if (!pending) {
        pending = ask(db).finally(() => asking.delete(db));
        asking.set(db, pending);
      }
      return pending;
    },
    holds(db) {
      const lease = held.get(db);
      if (!lease) return false;
      if (Date.now() < lease.until) {
        lease.used = Date.now();
        return true;
      }
      return false;
    },
    onLost(listener) {
      lost.add(listener);
    },
    forget(db) {
      others.delete(db);
    },
    async releaseAll() {
      const dbs = [...held.keys()];
      held.clear();
      await Promise.all(dbs.map((db) => runScript(redis, RELEASE, key(db), [node]).catch(() => undefined)));
      return dbs;
    },
    async close() {
      clearInterval(timer);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
