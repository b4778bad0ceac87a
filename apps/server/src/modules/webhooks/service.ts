import crypto from 'node:crypto';
import type { WebhookType } from '@tempora/contracts';
import { gunTimeOf, netTimeOf, rankAt, statusOf } from '@tempora/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { EgressPolicy } from '../../lib/egress/policy.ts';
import type { ContextState, PassingRow, RaceLive, ResultsObserver } from '../results/port.ts';
import { shownCorrection } from '../results/port.ts';
import { postWebhook } from './deliver.ts';
import * as repo from './repository.ts';

/** Retries: 30 s, then doubling, at most an hour apart, until 24 h after queuing (`expires_at`). */
export const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 3_600_000;
/** How long a claimed delivery is held by its node (longer than the request timeout). */
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;
const BATCH = 20;
const POLL_MS = 1_000;

/** The wait before attempt n + 1 after n failed attempts. */
export function backoffMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * The signature header (documented in the README): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" under the webhook's secret>`. The timestamp inside the MAC lets a receiver refuse
 * replays older than a few minutes.
 */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

const REMOVED = new Set(['DNS', 'DNF', 'DSQ']);

/** One occurrence for the webhooks of an event. */
interface Occurrence {
  type: WebhookType | 'ping';
  key: string;
  data: unknown;
}

function runner(race: RaceLive, i: number) {
  const p = race.participants[i]!;
  const r = race.results;
  const finish = r.index.pointCount - 1;
  const finished = statusOf(r, i) === 'finished';
  return {
    raceId: race.row.id,
    bib: p.bib,
    firstName: p.firstName,
    lastName: p.lastName,
    status: statusOf(r, i),
    netMs: finished ? netTimeOf(r, i, finish) : null,
    gunMs: finished ? gunTimeOf(r, i, finish) : null,
    rankOverall: finished ? rankAt(r, i, finish) : null,
    rankGender: finished ? rankAt(r, i, finish, 'gender') : null,
    rankCategory: finished ? rankAt(r, i, finish, 'category') : null,
  };
}

/**
 * Webhooks (issue 16): observes the results service, queues one delivery per occurrence and
 * subscribed webhook in the database (durable: retried across restarts), and a worker on every
 * node sends them. Queuing runs behind ingest's acknowledgement and apart from it (a chain of its
 * own, never awaited by ingest), so a slow or failing receiver never slows ingest.
 */
export function createWebhooksService(deps: {
  database: Database;
  log: FastifyBaseLogger;
  /** Where deliveries may go (lib/egress: `webhookPolicy`); the public internet only by default. */
  egress?: EgressPolicy;
}) {
  const { database, log, egress = {} } = deps;
  /** Last known status per context and `raceId/bib` (transitions make `runner.*` occurrences). */
  const statuses = new Map<string, Map<string, string>>();
  /** Active webhooks per event, cached briefly (CRUD clears it). */
  const hooks = new Map<string, { at: number; list: Promise<{ id: string; types: WebhookType[] }[]> }>();
  /**
   * Whether each event had active webhooks when last read (known synchronously, for the observer).
   * Decision (issue 14): status baselines are kept only for events known to have webhooks. A
   * 45,000-runner snapshot was a third of the synchronous block of a context reload after an
   * import; events without webhooks (most) no longer pay it. The baseline of an event is taken
   * once it is known to have one (at the load that learns it, or lazily at its next passing), so
   * a status change in the few seconds between a webhook's creation on another node and this
   * node's next read of the list (cached 5 s) makes no `runner.status` delivery.
   */
  const hasHooks = new Map<string, boolean>();
  /** The last state of each context seen (a reference), to take a baseline when hooks appear. */
  const lastState = new Map<string, ContextState>();
  function learned(eventId: string, has: boolean) {
    const was = hasHooks.get(eventId);
    hasHooks.set(eventId, has);
    if (!has || was === true) return;
    for (const [db, ctx] of lastState)
      if (ctx.context.eventId === eventId && !statuses.has(db)) statuses.set(db, snapshot(ctx));
  }
  let queue: Promise<unknown> = Promise.resolve();
  let wake: (() => void) | null = null;
  let running = false;
  let loop: Promise<void> | null = null;

  function webhooksOf(eventId: string) {
    const cached = hooks.get(eventId);
    if (cached && Date.now() - cached.at < 5_000) return cached.list;
    const list = repo.activeWebhooks(database, eventId);
    hooks.set(eventId, { at: Date.now(), list });
    list.then(
      (l) => learned(eventId, l.length > 0),
      () => hooks.delete(eventId),
    );
    return list;
  }

  /** Queues occurrences for the event's subscribed webhooks, behind earlier ones, never throwing. */
  function publish(eventId: string, occurrences: Occurrence[]) {
    if (!occurrences.length) return;
    queue = queue
      .then(async () => {
        const list = await webhooksOf(eventId);
        const deliveries: repo.NewDelivery[] = [];
        const createdAt = new Date().toISOString();
        for (const hook of list) {
          for (const o of occurrences) {
            if (o.type !== 'ping' && !hook.types.includes(o.type)) continue;
            deliveries.push({
              webhookId: hook.id,
              type: o.type,
              dedupeKey: o.key,
              payload: { type: o.type, eventId, createdAt, data: o.data },
            });
          }
        }
        if (deliveries.length && (await repo.enqueue(database, deliveries))) wake?.();
      })
      .catch((error) => log.error({ err: error }, 'webhooks: queuing failed'));
  }

  /** Statuses of a context now, by `raceId/bib`. */
  function snapshot(ctx: ContextState) {
    const map = new Map<string, string>();
    for (const race of ctx.races.values()) {
      race.participants.forEach((p, i) => {
        map.set(`${race.row.id}/${p.bib}`, statusOf(race.results, i));
      });
    }
    return map;
  }

  const observer: ResultsObserver = {
    applied(ctx, stored, changes) {
      const db = ctx.context.db;
      lastState.set(db, ctx);
      const tracked = hasHooks.get(ctx.context.eventId) !== false;
      const known = tracked ? (statuses.get(db) ?? snapshot(ctx)) : new Map<string, string>();
      if (tracked) statuses.set(db, known);
      else statuses.delete(db);
      const occurrences: Occurrence[] = [];
      for (const p of stored as PassingRow[]) {
        const passing = {
          db,
          id: p.id,
          seq: p.seq,
          bib: p.bib ?? null,
          chip: p.chip ?? null,
          point: p.pointId,
          timeMs: p.timeMs,
          source: p.source,
          deleted: p.deleted ?? false,
        };
        if (!p.deleted)
          occurrences.push({ type: 'passing.stored', key: `passing:${db}:${p.seq}`, data: passing });
        if (p.deleted || p.source === 'manual')
          occurrences.push({
            type: 'passing.corrected',
            key: `corrected:${db}:${p.seq}`,
            data: { ...passing, action: p.deleted ? 'voided' : 'added' },
          });
      }
      for (const [raceId, change] of tracked ? changes : []) {
        const race = ctx.races.get(raceId);
        if (!race) continue;
        // The runners whose own reads changed: a finish is theirs (others only moved in rank).
        for (const i of change.runners) {
          const key = `${raceId}/${race.participants[i]!.bib}`;
          const now = statusOf(race.results, i);
          const before = known.get(key);
          known.set(key, now);
          if (now === 'finished' && before !== 'finished') {
            const data = runner(race, i);
            occurrences.push({ type: 'runner.finished', key: `finished:${db}:${key}:${data.netMs}`, data });
          }
        }
      }
      publish(ctx.context.eventId, occurrences);
    },
    corrected(ctx, corrections) {
      // Issue 43: official results corrected — receivers get what changed and why, with the
      // runner's result as it stands now.
      const occurrences: Occurrence[] = corrections.map((c) => {
        const race = ctx.races.get(c.raceId);
        const i = race && c.bib !== null ? race.byBib.get(c.bib) : undefined;
        return {
          type: 'results.corrected',
          key: `correction:${c.id}`,
          data: {
            db: ctx.context.db,
            // Named as the live state names the runner now (a hidden name stays hidden).
            ...shownCorrection(race, c),
            at: new Date(c.atMs).toISOString(),
            runner: race && i !== undefined ? runner(race, i) : null,
          },
        };
      });
      publish(ctx.context.eventId, occurrences);
    },
    loaded(ctx) {
      const db = ctx.context.db;
      const eventId = ctx.context.eventId;
      lastState.set(db, ctx);
      if (hasHooks.get(eventId) !== true) {
        // The baseline is taken by `learned` if the (re)read list has webhooks.
        statuses.delete(db);
        webhooksOf(eventId).catch(() => {});
        return;
      }
      const before = statuses.get(db);
      const now = snapshot(ctx);
      statuses.set(db, now);
      if (!before) return;
      const occurrences: Occurrence[] = [];
      for (const race of ctx.races.values()) {
        race.participants.forEach((p, i) => {
          const key = `${race.row.id}/${p.bib}`;
          const was = before.get(key);
          const is = now.get(key)!;
          if (was !== undefined && was !== is && (REMOVED.has(is) || REMOVED.has(was)))
            occurrences.push({
              type: 'runner.status',
              key: `status:${db}:${key}:${Date.now()}`,
              data: { ...runner(race, i), previousStatus: was },
            });
        });
      }
      publish(ctx.context.eventId, occurrences);
    },
  };

  /** Sends one claimed delivery and records the outcome. */
  async function send(d: repo.ClaimedDelivery) {
    const body = JSON.stringify({ id: d.id, ...(d.payload as object) });
    const started = performance.now();
    const timestamp = Math.floor(Date.now() / 1000);
    const attempt = await postWebhook(
      d.url,
      {
        'content-type': 'application/json',
        'user-agent': 'Tempora-Webhooks/1',
        'tempora-event': d.type,
        'tempora-delivery': String(d.id),
        'tempora-signature': signatureHeader(d.secret, body, timestamp),
      },
      body,
      { egress, timeoutMs: TIMEOUT_MS },
    );
    const { status } = attempt;
    let { error } = attempt;
    const durationMs = Math.round(performance.now() - started);
    const ok = status !== null && status >= 200 && status < 300;
    if (!ok && !error) error = `HTTP ${status}`;
    const retryAt = new Date(Date.now() + backoffMs(d.attempts));
    const outcome = ok
      ? ({ state: 'delivered' } as const)
      : retryAt.getTime() > new Date(d.expiresAt).getTime()
        ? ({ state: 'failed' } as const)
        : ({ state: 'pending', retryAt } as const);
    await repo.recordAttempt(database, d.id, { status, error, durationMs }, outcome);
  }

  /** One round: claims due deliveries and sends them concurrently. Returns how many. */
  async function drain(): Promise<number> {
    const due = await repo.claimDue(database, BATCH, LEASE_MS);
    await Promise.all(
      due.map((d) => send(d).catch((e) => log.error({ err: e, delivery: d.id }, 'webhooks: sending failed'))),
    );
    return due.length;
  }

  return {
    observer,
    drain,
    /** Queues a `ping` to one webhook (the organiser's test button). */
    async ping(webhookId: string, eventId: string) {
      await repo.enqueue(database, [
        {
          webhookId,
          type: 'ping',
          dedupeKey: `ping:${crypto.randomUUID()}`,
          payload: { type: 'ping', eventId, createdAt: new Date().toISOString(), data: {} },
        },
      ]);
      wake?.();
    },
    /** Forgets cached webhook lists (after a change). */
    changed(eventId: string) {
      hooks.delete(eventId);
      webhooksOf(eventId).catch(() => {});
      wake?.();
    },
    /** Waits until every occurrence observed so far is queued (tests, shutdown). */
    flushed: () => queue,
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          const sent = await drain().catch((e) => {
            log.error({ err: e }, 'webhooks: a round failed');
            return 0;
          });
          if (sent === BATCH) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, POLL_MS);
            timer.unref();
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = null;
        }
      })();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      await queue;
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
