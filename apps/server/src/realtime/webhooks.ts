import type { FastifyBaseLogger } from 'fastify';
import { hmacHex } from './protocol.ts';

/**
 * One webhook event as Pusher documents them ("Webhooks"): channel existence, presence, client
 * events and cache misses.
 */
export type WebhookEvent =
  | { name: 'channel_occupied' | 'channel_vacated' | 'cache_miss'; channel: string }
  | { name: 'member_added' | 'member_removed'; channel: string; user_id: string }
  | {
      name: 'client_event';
      channel: string;
      event: string;
      data: string;
      socket_id: string;
      user_id?: string;
    };

export interface Webhooks {
  readonly enabled: boolean;
  emit(event: WebhookEvent): void;
  /** Sends what is buffered and waits for deliveries in flight (close, tests). */
  flush(): Promise<void>;
}

export interface WebhookOptions {
  urls: string[];
  key: string;
  secret: string;
  log: FastifyBaseLogger;
  /** Events are batched for this long (Pusher batches too); default 250 ms. */
  batchMs?: number;
  /** Delays before each retry of a failed delivery; default 1, 2, 4, 8 s. */
  retryDelaysMs?: number[];
}

const MAX_BATCH = 100;

/**
 * Realtime webhooks, as the Pusher service sends them so that the official SDKs' `webhook()`
 * helpers verify them unchanged: a POST of `{"time_ms": …, "events": [...]}` with
 * `Content-Type: application/json`, `X-Pusher-Key` and `X-Pusher-Signature` = hex HMAC-SHA256 of
 * the body with the app secret. Batched, retried with back-off on a network error or a non-2xx
 * answer; a slow receiver never slows the sockets (deliveries run behind).
 */
export function createWebhooks(options: WebhookOptions): Webhooks {
  const { urls, key, secret, log } = options;
  const batchMs = options.batchMs ?? 250;
  const delays = options.retryDelaysMs ?? [1000, 2000, 4000, 8000];
  let buffer: WebhookEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  const inFlight = new Set<Promise<void>>();

  const deliver = async (url: string, body: string) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-pusher-key': key,
            'x-pusher-signature': hmacHex(secret, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        if (res.ok) return;
        throw new Error(`answered ${res.status}`);
      } catch (error) {
        if (attempt >= delays.length) {
          log.warn({ err: error, url }, 'realtime webhook dropped after retries');
          return;
        }
        await new Promise((r) => setTimeout(r, delays[attempt]).unref());
      }
    }
  };

  const send = () => {
    timer = null;
    while (buffer.length) {
      const events = buffer.slice(0, MAX_BATCH);
      buffer = buffer.slice(MAX_BATCH);
      const body = JSON.stringify({ time_ms: Date.now(), events });
      for (const url of urls) {
        const job = deliver(url, body).finally(() => inFlight.delete(job));
        inFlight.add(job);
      }
    }
  };

  return {
    enabled: urls.length > 0,
    emit(event) {
      if (!urls.length) return;
      buffer.push(event);
      if (buffer.length >= MAX_BATCH) send();
      else if (!timer) {
        timer = setTimeout(send, batchMs);
        timer.unref();
      }
    },
    async flush() {
      if (timer) clearTimeout(timer);
      send();
      await Promise.all([...inFlight]);
    },
  };
}
