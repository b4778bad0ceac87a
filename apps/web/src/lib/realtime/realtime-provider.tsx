import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react';
import { currentEnvironment } from '../api-client.ts';
import { useAuth } from '../auth/auth-context.tsx';
// Types only: the client loads with pusher-js, once realtime is wanted (issue 19).
import type { ConnectionState, RealtimeSession } from './client.ts';
import { type BusHandler, type EventData, eventBus, type RealtimeEventName } from './event-bus.ts';

/** The session in use (exported for tests that provide a session of their own). */
export const RealtimeSessionContext = createContext<RealtimeSession | null>(null);

/**
 * Asks the provider to start realtime: pusher-js is loaded and connected only once something
 * needs it — a page holding a channel, or a signed-in user's personal channel (issue 19: no
 * pusher on pages that never subscribe).
 */
const RealtimeDemandContext = createContext<() => void>(() => undefined);

/** Starts realtime (once) while `needed`. */
export function useDemandRealtime(needed: boolean) {
  const demand = useContext(RealtimeDemandContext);
  useEffect(() => {
    if (needed) demand();
  }, [needed, demand]);
}

/**
 * Starts pusher-js once for the app and keeps the personal channel on the signed-in user's `sub`
 * (spec §4: one personal subscription; a new login replaces it; sign-out unsubscribes). When the
 * server says the profile or permissions changed, they are reloaded (issue 5). Without an app
 * key the app runs without live updates and says why in the console (spec §8).
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { status, profile, refreshProfile } = useAuth();
  const [session, setSession] = useState<RealtimeSession | null>(null);
  const sub = status === 'signedIn' ? (profile?.sub ?? null) : null;
  const [demanded, setDemanded] = useState(false);
  // The session's start re-renders every page that listens (the report view and its table): as a
  // transition, not one blocking task after the page's first render (issue 28).
  const demand = useCallback(() => startTransition(() => setDemanded(true)), []);
  // Once started, realtime stays: sign-out then unsubscribes the personal channel (spec §4)
  // rather than dropping the connection.
  const wanted = demanded || sub !== null;
  useEffect(() => {
    if (sub !== null) setDemanded(true);
  }, [sub]);

  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    let started: RealtimeSession | null = null;
    let settings: ReturnType<typeof currentEnvironment>['realtime'];
    try {
      settings = currentEnvironment().realtime;
    } catch (error) {
      console.warn((error as Error).message);
      return;
    }
    import('./client.ts')
      .then(async ({ createPusher, RealtimeSession }) => ({
        pusher: await createPusher(settings),
        RealtimeSession,
      }))
      .then(
        ({ pusher, RealtimeSession }) => {
          if (cancelled) {
            pusher.disconnect();
            return;
          }
          started = new RealtimeSession(pusher);
          const session = started;
          startTransition(() => setSession(session));
        },
        (error: Error) => console.warn(error.message),
      );
    return () => {
      cancelled = true;
      started?.close();
      setSession(null);
    };
  }, [wanted]);

  useEffect(() => {
    session?.setPersonal(sub);
  }, [session, sub]);

  const reload = useRef(refreshProfile);
  reload.current = refreshProfile;
  useEffect(() => {
    if (!sub) return;
    const refresh = () => void reload.current().catch(() => undefined);
    const offProfile = eventBus.on('profile-updated', refresh);
    const offPermissions = eventBus.on('permissions-updated', refresh);
    return () => {
      offProfile();
      offPermissions();
    };
  }, [sub]);

  return (
    <RealtimeDemandContext.Provider value={demand}>
      <RealtimeSessionContext.Provider value={session}>{children}</RealtimeSessionContext.Provider>
    </RealtimeDemandContext.Provider>
  );
}

/** The realtime session, or null while it starts (or when realtime is not configured). */
export function useRealtimeSession(): RealtimeSession | null {
  return useContext(RealtimeSessionContext);
}

/**
 * The connection state and whether it is lost (was connected, is not now), followed as a
 * transition — not an external store: the socket connects while the page's first transitions
 * render, and React renders a transition again, blocking, when a store it read changed meanwhile
 * (issue 28: the whole report page a second time in one task).
 */
export function useConnectionState(): { state: ConnectionState | 'off'; lost: boolean } {
  const session = useRealtimeSession();
  const [value, setValue] = useState(() => readConnection(session));
  useEffect(() => {
    const update = () =>
      startTransition(() =>
        setValue((previous) => {
          const next = readConnection(session);
          return previous.state === next.state && previous.lost === next.lost ? previous : next;
        }),
      );
    update();
    return session?.onStateChange(update);
  }, [session]);
  return value;
}

function readConnection(session: RealtimeSession | null): { state: ConnectionState | 'off'; lost: boolean } {
  return { state: session?.state ?? 'off', lost: session?.isLost ?? false };
}

/** Calls `handler` for `event` from any channel (personal channel events), while mounted. */
export function useBusEvent<E extends RealtimeEventName>(event: E, handler: BusHandler<E>): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => eventBus.on(event, (data, meta) => ref.current(data, meta)), [event]);
}

/**
 * Holds the public `channel` while mounted (ref-counted across components) and calls `handler`
 * for `event` on that channel only. A null channel holds nothing.
 */
export function useChannelEvent<E extends RealtimeEventName>(
  channel: string | readonly string[] | null,
  event: E,
  handler: (data: EventData<E>, channel: string) => void,
): void {
  const session = useRealtimeSession();
  // Several channels (issue 28: the rank windows a table shows) as one key, so a new array of the
  // same channels subscribes nothing again.
  const key = channel === null ? '' : typeof channel === 'string' ? channel : channel.join('\n');
  useDemandRealtime(key !== '');
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!key || !session) return;
    const channels = key.split('\n');
    const releases = channels.map((c) => session.hold(c));
    const off = eventBus.on(event, (data, meta) => {
      if (channels.includes(meta.channel)) ref.current(data, meta.channel);
    });
    return () => {
      off();
      for (const release of releases) release();
    };
  }, [key, event, session]);
}

/** Registers `callback` to run after every reconnection: live pages catch up (invalidate queries). */
export function useReconnectCatchUp(callback: () => void): void {
  const session = useRealtimeSession();
  const ref = useRef(callback);
  ref.current = callback;
  useEffect(() => session?.onReconnect(() => ref.current()), [session]);
}

/**
 * Runs `callback` when the subscription to `channel` succeeds (see `RealtimeSession.onSubscribed`):
 * data fetched before the subscription catches up with what was published in between.
 */
export function useSubscribedCatchUp(
  channel: string | readonly string[] | null,
  callback: (channel: string) => void,
): void {
  const session = useRealtimeSession();
  const ref = useRef(callback);
  ref.current = callback;
  const key = channel === null ? '' : typeof channel === 'string' ? channel : channel.join('\n');
  useEffect(() => {
    if (!key || !session) return;
    const offs = key.split('\n').map((c) => session.onSubscribed(c, () => ref.current(c)));
    return () => {
      for (const off of offs) off();
    };
  }, [key, session]);
}
