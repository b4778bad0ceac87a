import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config/config.ts';
import { localAdapter } from './adapters/local.ts';
import { pusherHttpAdapter } from './adapters/pusher-http.ts';
import { redisAdapter } from './adapters/redis.ts';
import type { RealtimeAdapter } from './adapters/types.ts';
import { realtimeAuthRoute } from './auth-route.ts';
import { eventsApiRoutes } from './events-api.ts';
import { LocalHub } from './hub.ts';
import { RealtimeNode } from './node.ts';
import { createRealtimeService, type RealtimeService } from './service.ts';
import { upstreamWebhookRoutes } from './upstream-webhooks.ts';
import { createWebhooks } from './webhooks.ts';
import { attachSocketServer, type SocketServer } from './ws-server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Publish realtime events and read occupancy (the realtime plugin). */
    realtime: RealtimeService;
  }
}

export interface RealtimePluginOptions {
  /** Defaults to `app.config`. */
  config?: Config;
  /** Redis adapter heartbeat (tests shorten it). */
  heartbeatMs?: number;
}

/** The adapter the configuration asks for: REALTIME_ADAPTER, else redis with REDIS_URL, else local. */
function createAdapter(config: Config, hub: LocalHub, log: FastifyBaseLogger, opts: RealtimePluginOptions) {
  const name = config.REALTIME_ADAPTER ?? (config.REDIS_URL ? 'redis' : 'local');
  const { REALTIME_APP_ID: appId, REALTIME_KEY: key, REALTIME_SECRET: secret } = config;
  if (name === 'redis') {
    if (!config.REDIS_URL) throw new Error('REALTIME_ADAPTER=redis needs REDIS_URL');
    return redisAdapter({
      url: config.REDIS_URL,
      prefix: config.REALTIME_REDIS_PREFIX,
      log,
      heartbeatMs: opts.heartbeatMs,
    });
  }
  if (name === 'pusher-http') {
    if (!config.REALTIME_UPSTREAM_URL)
      throw new Error('REALTIME_ADAPTER=pusher-http needs REALTIME_UPSTREAM_URL');
    return pusherHttpAdapter({ url: config.REALTIME_UPSTREAM_URL, appId, key, secret });
  }
  return localAdapter(hub);
}

/**
 * Realtime (product.md: the server speaks the Pusher Channels protocol 7 itself): the WebSocket
 * server at `/app/{key}`, the Pusher HTTP events API at `/apps/{app_id}/…`, the channel
 * authorisation endpoint `POST /api/realtime/auth`, and `app.realtime` for the rest of the server.
 * With an upstream Pusher service (`pusher-http`), no sockets and no events API here, but its
 * signed occupancy webhooks at `POST /api/realtime/webhooks` (upstream-webhooks.ts).
 * Sockets close in preClose (before Fastify waits for the HTTP server to drain), Redis in onClose.
 */
export const realtimePlugin = fp<RealtimePluginOptions>(
  async (app: FastifyInstance, opts) => {
    const config = opts.config ?? app.config;
    // Issue 42: never a default; buildApp gives the install's own when REALTIME_SECRET is unset.
    if (!config.REALTIME_SECRET) throw new Error('The realtime server needs a secret (REALTIME_SECRET)');
    const hub = new LocalHub();
    const adapter: RealtimeAdapter = createAdapter(config, hub, app.log, opts);
    await adapter.start(hub);
    const { REALTIME_APP_ID: appId, REALTIME_KEY: key, REALTIME_SECRET: secret } = config;
    const webhooks = createWebhooks({ urls: config.REALTIME_WEBHOOK_URLS, key, secret, log: app.log });
    const node = new RealtimeNode(hub, adapter, {
      key,
      secret,
      clientEvents: config.REALTIME_CLIENT_EVENTS,
      subscriptionCount: config.REALTIME_SUBSCRIPTION_COUNT,
      webhooks,
    });
    let sockets: SocketServer | undefined;
    if (adapter.servesSockets) {
      sockets = attachSocketServer(app, node, {
        key,
        maxConnections: config.REALTIME_MAX_CONNECTIONS,
        activityTimeoutS: config.REALTIME_ACTIVITY_TIMEOUT,
      });
    }
    const realtime = createRealtimeService(adapter, () => sockets?.connections.size ?? 0, hub);
    app.decorate('realtime', realtime);
    // Issue 42: the channels of a draft (and of a hidden report) carry nothing to anyone, exactly
    // like the channels of a context that does not exist: subscriptions succeed (a refusal would
    // tell a draft from a missing context), publications skip them while the event is a draft,
    // and a subscription kept from before hears again once the event is published. The policy
    // decides which (policy/visibility.ts); organisers' pages of a draft refetch instead.
    if (app.hasDecorator('visibility'))
      realtime.closeChannels((channel) => app.visibility.channelClosed(channel));
    if (adapter.servesSockets) await app.register(eventsApiRoutes, { appId, key, secret, realtime });
    else
      await app.register(upstreamWebhookRoutes, {
        key,
        secret,
        occupancy: (channel, occupied) => realtime.upstreamOccupancy(channel, occupied),
      });
    await app.register(realtimeAuthRoute, {
      key,
      secret,
      encryptionMasterKey: config.REALTIME_ENCRYPTION_MASTER_KEY,
    });
    app.addHook('preClose', async () => {
      await sockets?.close();
    });
    app.addHook('onClose', async () => {
      node.stop();
      await webhooks.flush();
      await adapter.close();
    });
    app.log.info({ adapter: adapter.name }, 'realtime ready');
  },
  { name: 'realtime' },
);
