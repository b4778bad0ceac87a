import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { runScript } from '../../realtime/adapters/redis-scripts.ts';

/** Default time a publisher lease lasts without renewal (RESULTS_LEASE_MS). */
export const LEASE_MS = 3_000;
/** A lease not used (no ingest, no notice, no publication) for this long is given back. */
const IDLE_MS = 60_000;
/**
 * How long a node takes another's lease as held without asking again (and looking whether its
 * holder is still connected to Redis, see `redisLeases`): a publisher killed is replaced within
 * about this, not within the lease's time (issue 28: 3 s of no patches after a publisher's kill
 * was the cluster bench's p99).
 */
const RECHECK_MS = 100;

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
return {redis.call('pttl', KEYS[1]), v}`;

/** Takes the lease from a holder found gone, only if it still names that holder: 1 taken, 0 not. */
const TAKE_OVER = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

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
 * A holder killed is replaced at once, not after its lease expires (issue 28): each node's lease
 * connection is named after it (`CLIENT SETNAME {prefix}node:{id}`) and its leases hold `n:{id}`
 * (a holder whose connection has a name). A node that finds another's lease (asked again every
 * RECHECK_MS) looks at Redis's client list: when no connection bears the holder's name — the
 * kernel closed the dead process's sockets, Redis dropped them — it takes the lease over (only if
 * it still names that holder). The holder, for its part, stops counting its leases held the
 * moment its lease connection closes (it could not renew them; another node may take them over
 * now): two nodes never both count one lease held. A holder cut off from Redis without its
 * connection closing (a partition) still shows as connected: its lease expires as before.
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
  const me = `n:${node}`;
  const nameOf = (id: string) => `${prefix}node:${id}`;
  const redis = new Redis(options.url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    connectionName: nameOf(node),
  }).on('error', (err) => log.warn({ err }, 'results lease: Redis error'));
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
  // Another node takes a lease over once this connection is gone from Redis's client list.
  redis.on('close', () => {
    for (const db of [...held.keys()]) drop(db);
  });

  /**
   * The names of the connections Redis has, asked after mark `after` (taken once a lease's value
   * came back: a list asked from then on is answered after it was read — a list asked before
   * could miss a holder that connected since). One list serves every context asking meanwhile.
   */
  let sent = 0;
  let names: { tick: number; list: Promise<Set<string>> } | undefined;
  const connected = (after: number) => {
    if (!names || names.tick < after) {
      const list = (redis.call('CLIENT', 'LIST', 'TYPE', 'normal') as Promise<string>).then(
        (text) => new Set([...text.matchAll(/ name=(\S+)/g)].map((m) => m[1]!)),
      );
      const current = { tick: ++sent, list };
      names = current;
      list.catch(() => {
        if (names === current) names = undefined;
      });
    }
    return names.list;
  };
  /**
   * Whether the holder named by a lease's value is gone: its lease connection is not in Redis.
   * Not known (a Redis that refuses `CLIENT LIST` to this user, say): not gone — the lease
   * expires as before.
   */
  let listRefused = false;
  const gone = async (holder: string, after: number) => {
    if (!holder.startsWith('n:') || listRefused) return false;
    try {
      return !(await connected(after)).has(nameOf(holder.slice(2)));
    } catch (error) {
      if (/NOPERM|unknown command/i.test(String((error as Error).message))) listRefused = true;
      log.warn({ err: error }, 'results lease: the list of connections could not be read');
      return false;
    }
  };

  const renew = async () => {
    const now = Date.now();
    for (const [db, lease] of [...held]) {
      if (now - lease.used > IDLE_MS) {
        held.delete(db);
        await runScript(redis, RELEASE, key(db), [me]).catch(() => undefined);
        continue;
      }
      const started = Date.now();
      try {
        const ok = Number(await runScript(redis, RENEW, key(db), [me, leaseMs]));
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
      const answer = (await runScript(redis, ACQUIRE, key(db), [me, leaseMs])) as number | [number, string];
      // A list of connections asked from now on is answered after this lease was read.
      const tick = ++sent;
      const take = (how: 'taken' | 'held') => {
        others.delete(db);
        held.set(db, { until: started + leaseMs - margin, used: Date.now() });
        return how;
      };
      if (typeof answer === 'number') return take(answer === -1 ? 'taken' : 'held');
      const [left, holder] = answer;
      if (
        (await gone(holder, tick)) &&
        Number(await runScript(redis, TAKE_OVER, key(db), [holder, me, leaseMs])) === 1
      ) {
        log.info({ db, holder }, 'results lease: the holder is gone, taken over');
        return take('taken');
      }
      drop(db);
      others.set(db, started + Math.min(Number(left), leaseMs, RECHECK_MS));
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
      await Promise.all(dbs.map((db) => runScript(redis, RELEASE, key(db), [me]).catch(() => undefined)));
      return dbs;
    },
    async close() {
      clearInterval(timer);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
