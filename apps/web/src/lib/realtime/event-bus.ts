import type { PassingEvent, ReportPatch } from '@tempora/contracts';

/**
 * Events the app knows, by name, with their data. Anything else still travels on the bus (spec
 * §4: "every event name with its data is forwarded") with `unknown` data.
 */
export interface RealtimeEventMap {
  /** A report's channels (`liveChannels`): row patches of a report (packages/contracts results.ts). */
  'report-patch': ReportPatch;
  /** A runner's channel or the passings feed (`liveChannels`): one accepted read. */
  passing: PassingEvent;
  /** Personal channel: the profile changed on the server; the client reloads it (issue 5). */
  'profile-updated': unknown;
  /** Personal channel: the permissions changed; the client reloads them (issue 5). */
  'permissions-updated': unknown;
}

/** A known event name, or any other string. */
export type RealtimeEventName = keyof RealtimeEventMap | (string & {});
/** The data of an event: typed for known names, `unknown` otherwise. */
export type EventData<E extends string> = E extends keyof RealtimeEventMap ? RealtimeEventMap[E] : unknown;
/** Where an event came from. */
export interface EventMeta {
  event: string;
  channel: string;
}
export type BusHandler<E extends string = string> = (data: EventData<E>, meta: EventMeta) => void;

/** Subscribe to this name to receive every event. */
export const ANY_EVENT = '*';

/**
 * The internal event bus (spec §4: "Every event name with its data is forwarded to an internal
 * event bus"). Pages subscribe by name; a failing handler is logged and never stops the others.
 */
export class EventBus {
  private readonly handlers = new Map<string, Set<BusHandler<string>>>();

  /** Subscribes `handler` to `event` (`*` for all); returns the function that unsubscribes it. */
  on<E extends RealtimeEventName>(event: E, handler: BusHandler<E>): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    const entry = handler as BusHandler<string>;
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.handlers.get(event) === set) this.handlers.delete(event);
    };
  }

  /** Delivers `data` to the handlers of `event`, then to those of `*`. */
  emit<E extends RealtimeEventName>(event: E, data: EventData<E>, channel = ''): void {
    const meta: EventMeta = { event, channel };
    for (const name of [event, ANY_EVENT]) {
      const set = this.handlers.get(name);
      if (!set) continue;
      for (const handler of [...set]) {
        try {
          handler(data, meta);
        } catch (error) {
          console.error(`event bus: a handler of "${event}" failed`, error);
        }
      }
    }
  }

  /** Number of handlers of `event` (tests, diagnostics). */
  listenerCount(event: string): number {
    return this.handlers.get(event)?.size ?? 0;
  }
}

/** The application's one bus, fed by the realtime session. */
export const eventBus = new EventBus();
