import { type EnvironmentConfig, RESULTS_EVENT, unbundleResults } from '@tempora/contracts';
import type Pusher from 'pusher-js';
import type { ChannelAuthorizationCallback, Options } from 'pusher-js';
import { apiPost } from '../api-client.ts';
import { eventBus } from './event-bus.ts';

/** pusher-js connection states ("Connection States" in the pusher-js README). */
export type ConnectionState =
  | 'initialized'
  | 'connecting'
  | 'connected'
  | 'unavailable'
  | 'failed'
  | 'disconnected';

/** What the server answers a channel authorisation (`{auth, channel_data?}`). */
export type ChannelAuthorizationData = NonNullable<Parameters<ChannelAuthorizationCallback>[1]>;

/** The part of pusher-js the session uses (a stand-in in unit tests). */
export type PusherLike = Pick<Pusher, 'subscribe' | 'unsubscribe' | 'connection' | 'disconnect'>;

/** Asks the server to sign a private/presence subscription (pusher-js `channelAuthorization`). */
export type Authorize = (socketId: string, channelName: string) => Promise<ChannelAuthorizationData>;

/** The channel authorisation endpoint: POST /api/realtime/auth on our server (issue 5). */
export const AUTH_PATH = 'realtime/auth';

/**
 * Default authoriser: through the one shared API client (spec §7), so the bearer ID token, the
 * refresh-and-retry on 401 and problem+json errors are the same as for every other call.
 */
export const authorizeWithApi: Authorize = (socketId, channelName) =>
  apiPost<ChannelAuthorizationData>(
    'apiUrlBase',
    AUTH_PATH,
    new URLSearchParams({ socket_id: socketId, channel_name: channelName }).toString(),
    { headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  );

type Place = Pick<Location, 'protocol' | 'hostname' | 'port'>;

/**
 * pusher-js options from the environment (spec §9: app key, cluster `eu`): the self-hosted
 * server's host/port, else this page's; TLS from the page's protocol unless forced. Throws when
 * the app key is missing (spec §8), naming the setting.
 */
export function pusherOptions(
  settings: EnvironmentConfig['realtime'],
  authorize: Authorize = authorizeWithApi,
  place: Place = window.location,
): Options {
  if (!settings.key?.trim()) {
    throw new Error(
      'Realtime client cannot start: the app key is missing (realtime.key of the environment configuration)',
    );
  }
  const tls = settings.forceTLS ?? place.protocol === 'https:';
  const port = settings.port ?? (place.port ? Number(place.port) : tls ? 443 : 80);
  return {
    cluster: settings.cluster || 'eu',
    wsHost: settings.host || place.hostname,
    wsPort: port,
    wssPort: port,
    forceTLS: tls,
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        authorize(socketId, channelName).then(
          (data) => callback(null, data),
          (error: Error) => callback(error, null),
        );
      },
    },
  };
}

/**
 * Starts pusher-js (loaded on demand: it stays out of the initial bundle). Rejects before
 * loading anything when the app key is missing (spec §8).
 */
export async function createPusher(
  settings: EnvironmentConfig['realtime'],
  authorize: Authorize = authorizeWithApi,
  place: Place = window.location,
): Promise<Pusher> {
  const options = pusherOptions(settings, authorize, place);
  const { default: PusherClient } = await import('pusher-js');
  return new PusherClient(settings.key, options);
}

type Bound = {
  channel: ReturnType<PusherLike['subscribe']>;
  forward: (event: string, data: unknown) => void;
};

/**
 * The realtime session over one pusher-js client: at most one personal channel (spec §4: "only
 * one channel subscription exists at a time; a new login replaces the previous channel";
 * sign-out unsubscribes), public channels ref-counted, every event forwarded to the bus, the
 * connection state observable, and catch-up callbacks run after a reconnection.
 */
export class RealtimeSession {
  private personal: string | null = null;
  private readonly counts = new Map<string, number>();
  private readonly bound = new Map<string, Bound>();
  private readonly stateListeners = new Set<() => void>();
  private readonly catchUps = new Set<() => void>();
  private readonly subscribedListeners = new Map<string, Set<() => void>>();
  private current: ConnectionState;
  private wasConnected = false;
  private lost = false;

  constructor(readonly pusher: PusherLike) {
    this.current = (pusher.connection?.state as ConnectionState | undefined) ?? 'initialized';
    this.wasConnected = this.current === 'connected';
    pusher.connection?.bind?.('state_change', this.handleState);
  }

  private readonly handleState = ({ current }: { current: ConnectionState }) => {
    this.current = current;
    if (current === 'connected') {
      const reconnected = this.wasConnected && this.lost;
      this.wasConnected = true;
      this.lost = false;
      if (reconnected) for (const callback of [...this.catchUps]) callback();
    } else if (this.wasConnected) this.lost = true;
    for (const listener of [...this.stateListeners]) listener();
  };

  private subscribe(name: string): void {
    const channel = this.pusher.subscribe(name);
    const forward = (event: string, data: unknown) => {
      if (event === 'pusher:subscription_succeeded')
        for (const callback of [...(this.subscribedListeners.get(name) ?? [])]) callback();
      if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
      eventBus.emit(event, data, name);
      // A results bundle stands for its report patches and reads, in order (issue 20).
      if (event === RESULTS_EVENT)
        for (const [e, d] of unbundleResults(data)) eventBus.emit(e, d as never, name);
    };
    channel.bind_global(forward);
    this.bound.set(name, { channel, forward });
  }

  private unsubscribe(name: string): void {
    const bound = this.bound.get(name);
    // Unbind first: pusher-js keeps a channel object whose subscription is pending, and a new
    // subscribe would otherwise forward every event twice.
    bound?.channel.unbind_global?.(bound.forward);
    this.bound.delete(name);
    this.pusher.unsubscribe(name);
  }

  /**
   * Subscribes the personal channel `private-user-{sub}`, replacing any previous one; null
   * unsubscribes.
   *
   * Decision (issue 20): the spec (§4, §7) names one personal channel per signed-in user, and this
   * is it; pusher-js `signin()` is not used in addition. The server supports user authentication
   * (`pusher:signin`, `sendToUser`, `terminateUserConnections`) for SDK users, but the app's
   * personal events go to this channel only: signing in as well would cost a second
   * authentication round trip on every connection and open a second path (`#server-to-user-*`)
   * that no event of the app uses, and sending on both would deliver every event twice. Should
   * the server ever send to users instead, the channel and `signin()` swap here, in one place.
   */
  setPersonal(sub: string | null): void {
    const next = sub ? `private-user-${sub}` : null;
    if (next === this.personal) return;
    if (this.personal && !this.counts.has(this.personal)) this.unsubscribe(this.personal);
    this.personal = next;
    if (next && !this.bound.has(next)) this.subscribe(next);
  }

  /** The personal channel subscribed now, if any. */
  get personalChannel(): string | null {
    return this.personal;
  }

  /** Holds a public channel while at least one holder wants it; returns the release function. */
  hold(name: string): () => void {
    const count = this.counts.get(name) ?? 0;
    this.counts.set(name, count + 1);
    if (count === 0 && !this.bound.has(name)) this.subscribe(name);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(name) ?? 1) - 1;
      if (left > 0) this.counts.set(name, left);
      else {
        this.counts.delete(name);
        if (name !== this.personal) this.unsubscribe(name);
      }
    };
  }

  /** The pusher-js connection state now. */
  get state(): ConnectionState {
    return this.current;
  }

  /** True once connected at least once and not connected now (the banner shows). */
  get isLost(): boolean {
    return this.lost;
  }

  /** Calls `listener` on every connection state change; returns the unsubscribe function. */
  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Calls `callback` after every reconnection (live pages catch up); returns the unsubscribe function. */
  onReconnect(callback: () => void): () => void {
    this.catchUps.add(callback);
    return () => this.catchUps.delete(callback);
  }

  /**
   * Calls `callback` each time channel `name`'s subscription succeeds. A page that fetched its
   * data before (it learns the channel from that data) refetches then: what was published
   * between its fetch and its subscription would otherwise never reach it.
   */
  onSubscribed(name: string, callback: () => void): () => void {
    let set = this.subscribedListeners.get(name);
    if (!set) {
      set = new Set();
      this.subscribedListeners.set(name, set);
    }
    set.add(callback);
    return () => {
      set.delete(callback);
      if (set.size === 0) this.subscribedListeners.delete(name);
    };
  }

  /** Disconnects and forgets every subscription. */
  close(): void {
    this.pusher.connection?.unbind?.('state_change', this.handleState);
    this.pusher.disconnect();
    this.bound.clear();
    this.counts.clear();
    this.personal = null;
  }
}
