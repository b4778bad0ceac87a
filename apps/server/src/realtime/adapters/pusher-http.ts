import { signRequest } from '../http-signature.ts';
import type { ChannelStats, PresenceMember, RealtimeAdapter } from './types.ts';

export interface PusherHttpOptions {
  /** Base URL of the upstream, e.g. `https://api-eu.pusher.com` or another Tempora node. */
  url: string;
  appId: string;
  key: string;
  secret: string;
  timeoutMs?: number;
}

/**
 * Hosted Pusher, or any Pusher-compatible server, as the realtime service: events go to its HTTP
 * events API ("HTTP API reference"), occupancy is asked from it, and browsers connect to it
 * directly (the environment configuration points pusher-js at it). This node then serves no
 * WebSocket clients; it still signs channel authorisations with the same app secret.
 */
export function pusherHttpAdapter(options: PusherHttpOptions): RealtimeAdapter {
  const base = options.url.replace(/\/+$/, '');
  const appPath = `/apps/${encodeURIComponent(options.appId)}`;

  const call = async (
    method: 'GET' | 'POST',
    subPath: string,
    params?: Record<string, string>,
    body?: unknown,
  ) => {
    const path = `${appPath}${subPath}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const query = signRequest({ key: options.key, secret: options.secret, method, path, params, body: text });
    const response = await fetch(`${base}${path}?${query}`, {
      method,
      body: text,
      headers: text ? { 'content-type': 'application/json' } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    const answer = await response.text();
    if (!response.ok)
      throw new Error(`Realtime upstream ${method} ${path}: HTTP ${response.status} ${answer.slice(0, 200)}`);
    return answer ? (JSON.parse(answer) as unknown) : {};
  };

  const toStats = (name: string, raw: { subscription_count?: number; user_count?: number }): ChannelStats => {
    const stats: ChannelStats = { subscriptionCount: raw.subscription_count ?? 0 };
    if (name.startsWith('presence-')) stats.userCount = raw.user_count ?? 0;
    return stats;
  };

  return {
    name: 'pusher-http',
    servesSockets: false,
    async start() {},
    async publish(envelope) {
      const body: Record<string, unknown> = {
        name: envelope.event,
        data: envelope.data,
        channels: envelope.channels,
      };
      if (envelope.excludeSocketId) body.socket_id = envelope.excludeSocketId;
      await call('POST', '/events', undefined, body);
    },
    async channels(prefix = '') {
      const info = prefix.startsWith('presence-') ? 'subscription_count,user_count' : 'subscription_count';
      const params: Record<string, string> = { info };
      if (prefix) params.filter_by_prefix = prefix;
      const answer = (await call('GET', '/channels', params)) as { channels?: Record<string, object> };
      return new Map(Object.entries(answer.channels ?? {}).map(([name, raw]) => [name, toStats(name, raw)]));
    },
    async channel(name) {
      const info = name.startsWith('presence-') ? 'subscription_count,user_count' : 'subscription_count';
      return toStats(name, (await call('GET', `/channels/${name}`, { info })) as object);
    },
    async members(channel): Promise<PresenceMember[]> {
      const answer = (await call('GET', `/channels/${channel}/users`)) as { users?: { id: string }[] };
      // The HTTP API lists ids only; user_info is known to subscribers alone.
      return (answer.users ?? []).map((u) => ({ id: String(u.id), info: null }));
    },
    async subscriptionChanged() {},
    async memberJoined() {
      return false;
    },
    async memberLeft() {
      return false;
    },
    /** The upstream service keeps cache channels itself; this node serves no sockets. */
    async lastEvent() {
      return null;
    },
    async close() {},
  };
}
