import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { CACHE_TTL_MS, isCacheChannel } from '../protocol.ts';
import { JOIN, LEAVE, MEMBERS, REAP, runScript, STATS } from './redis-scripts.ts';
import type { ChannelStats, Envelope, LocalState, PresenceMember, RealtimeAdapter } from './types.ts';

export interface RedisAdapterOptions {
  url: string;
  prefix: string;
  log: FastifyBaseLogger;
  heartbeatMs?: number;
  /** A node silent for this long is dead: not counted, its members removed (default 3 heartbeats). */
  deadAfterMs?: number;
}

/**
 * Several nodes behind a load balancer. Events: one Redis pub/sub channel; every node delivers
 * each envelope to its own subscribers (the publisher too, through its subscription, so order
 * is the same everywhere). Occupancy and presence: each node keeps its own share in Redis
 * (subscription counts per channel, presence members per channel) under its node id, refreshed by
 * a heartbeat; readers sum the shares of live nodes (redis-scripts.ts). A crashed node stops
 * counting after `deadAfterMs`, and the next heartbeat of any node removes its share and
 * announces its presence members as removed. A node that finds itself reaped (a long pause)
 * writes its share again.
 */
export function redisAdapter(options: RedisAdapterOptions): RealtimeAdapter {
  const nodeId = randomUUID();
  const { prefix, log } = options;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const deadAfterMs = options.deadAfterMs ?? heartbeatMs * 3;
  const ttlMs = Math.max(60_000, deadAfterMs * 4);
  const nodesKey = `${prefix}nodes`;
  const subsKey = `${prefix}n:${nodeId}:subs`;
  const presKey = (channel: string) => `${prefix}n:${nodeId}:pres:${channel}`;
  const eventsChannel = `${prefix}events`;
  const connect = () =>
    new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 }).on('error', (error) =>
      log.warn({ err: error }, 'realtime redis error'),
    );
  const redis = connect();
  const subscriber = connect();
  let local: LocalState | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const common = () => [prefix, Date.now(), deadAfterMs];

  /** Writes this node's whole share again (after being reaped as dead). */
  const resync = async () => {
    if (!local) return;
    const batch = redis.multi().del(subsKey);
    for (const [channel, count] of local.subscriptionCounts()) batch.hset(subsKey, channel, count);
    batch.pexpire(subsKey, ttlMs);
    for (const [channel, members] of local.presenceMembers()) {
      batch.del(presKey(channel));
      for (const m of members) batch.hset(presKey(channel), m.id, JSON.stringify(m.info));
      batch.pexpire(presKey(channel), ttlMs);
    }
    await batch.exec();
  };

  const beat = async () => {
    const added = await redis.zadd(nodesKey, Date.now(), nodeId);
    if (Number(added) === 1) await resync();
    const batch = redis.pipeline().pexpire(subsKey, ttlMs);
    for (const channel of local?.presenceMembers().keys() ?? []) batch.pexpire(presKey(channel), ttlMs);
    await batch.exec();
    const removed = (await runScript(redis, REAP, nodesKey, common())) as string[];
    for (let i = 0; i + 1 < removed.length; i += 2) {
      const data = JSON.stringify({ user_id: removed[i + 1] });
      await adapter.publish({ channels: [removed[i]!], event: 'pusher_internal:member_removed', data });
    }
  };

  const adapter: RealtimeAdapter = {
    name: 'redis',
    servesSockets: true,
    async start(state) {
      local = state;
      const ready = Promise.all([redis.connect(), subscriber.connect()]);
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`Realtime: cannot reach Redis at REDIS_URL`)), 10_000).unref(),
      );
      await Promise.race([ready, timeout]);
      subscriber.on('message', (_channel: string, message: string) => {
        try {
          local?.deliver(JSON.parse(message) as Envelope);
        } catch (error) {
          log.warn({ err: error }, 'realtime: bad envelope from redis');
        }
      });
      await subscriber.subscribe(eventsChannel);
      await redis.zadd(nodesKey, Date.now(), nodeId);
      heartbeat = setInterval(() => {
        beat().catch((error: unknown) => log.warn({ err: error }, 'realtime heartbeat failed'));
      }, heartbeatMs);
      heartbeat.unref();
    },
    async publish(envelope) {
      const cached = envelope.event.startsWith('pusher') ? [] : envelope.channels.filter(isCacheChannel);
      if (cached.length) {
        // Cache channels: the last event, shared by every node, kept for the protocol's 30 minutes.
        const value = JSON.stringify({ event: envelope.event, data: envelope.data });
        const batch = redis.pipeline();
        for (const channel of cached) batch.set(`${prefix}cache:${channel}`, value, 'PX', CACHE_TTL_MS);
        await batch.exec();
      }
      await redis.publish(eventsChannel, JSON.stringify(envelope));
    },
    async lastEvent(channel) {
      const raw = await redis.get(`${prefix}cache:${channel}`);
      return raw ? (JSON.parse(raw) as { event: string; data: string }) : null;
    },
    async channels(channelPrefix = '') {
      const flat = (await runScript(redis, STATS, nodesKey, [...common(), channelPrefix, ''])) as (
        | string
        | number
      )[];
      const result = new Map<string, ChannelStats>();
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const stats: ChannelStats = { subscriptionCount: Number(flat[i + 1]) };
        if (Number(flat[i + 2]) >= 0) stats.userCount = Number(flat[i + 2]);
        result.set(String(flat[i]), stats);
      }
      return result;
    },
    async channel(name) {
      const flat = (await runScript(redis, STATS, nodesKey, [...common(), '', name])) as (string | number)[];
      const stats: ChannelStats = { subscriptionCount: Number(flat[1] ?? 0) };
      if (name.startsWith('presence-')) stats.userCount = Math.max(0, Number(flat[2] ?? 0));
      return stats;
    },
    async members(channel) {
      const flat = (await runScript(redis, MEMBERS, nodesKey, [...common(), channel])) as string[];
      const members: PresenceMember[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        members.push({ id: flat[i]!, info: parseInfo(flat[i + 1]!) });
      return members;
    },
    async subscriptionChanged(channel, localCount) {
      if (localCount > 0)
        await redis.pipeline().hset(subsKey, channel, localCount).pexpire(subsKey, ttlMs).exec();
      else await redis.hdel(subsKey, channel);
    },
    async memberJoined(channel, member) {
      const args = [...common(), nodeId, channel, member.id, JSON.stringify(member.info), ttlMs];
      return Number(await runScript(redis, JOIN, nodesKey, args)) === 1;
    },
    async memberLeft(channel, userId) {
      return Number(await runScript(redis, LEAVE, nodesKey, [...common(), nodeId, channel, userId])) === 1;
    },
    async close() {
      clearInterval(heartbeat);
      try {
        const batch = redis.multi().zrem(nodesKey, nodeId).del(subsKey);
        for (const channel of local?.presenceMembers().keys() ?? []) batch.del(presKey(channel));
        await batch.exec();
      } catch (error) {
        log.warn({ err: error }, 'realtime: could not remove this node from redis');
      }
      subscriber.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  return adapter;
}

function parseInfo(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
