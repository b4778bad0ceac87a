import crypto from 'node:crypto';
import type { AlertSubscribe, AlertSubscribed, AthleteCard } from '@tempora/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { Mail } from '../../identity/outbox.ts';
import type { EgressPolicy } from '../../lib/egress/policy.ts';
import type { ContextState, PassingRow, ResultsObserver } from '../results/port.ts';
import { type AlertPassing, alertMail, alertPush, alertWords, confirmMail } from './messages.ts';
import { makeVapidKeys, sendPush } from './push.ts';
import * as repo from './repository.ts';

export interface AlertsDeps {
  database: Database;
  log: FastifyBaseLogger;
  /** The runner's card (the same numbers every view shows) in the context of the read. */
  card: (db: string, trackingKey: string) => Promise<AthleteCard>;
  /** Stores and sends e-mails, many in one statement (the outbox). */
  sendMany: (mails: readonly Mail[]) => Promise<void>;
  send: (mail: Mail) => Promise<void>;
  publicUrl: string;
  egress: EgressPolicy;
  /** The VAPID `sub` claim: a contact of the server's operator (RFC 8292 §2.1). */
  vapidSubject: string;
}

const token = () => crypto.randomBytes(18).toString('base64url');
/**
 * Push messages in flight at once on a node: a push service answers in tens of milliseconds,
 * on kept-alive connections (push.ts), so the sends of a round overlap their waits; each one
 * costs the node ~0.5 ms of encryption.
 */
const PUSH_CONCURRENCY = 48;

/** One runner's passings in a batch of reads (what the observer queues). */
interface Touched {
  /** The context of the read (its live state gives the card, without a query). */
  db: string;
  /** The start read's time of day, when the batch held one. */
  start?: number;
  readAt: number;
  /** The newest of the runner's reads (passings.seq): an older one never replaces a sent time. */
  seq: number;
}

/**
 * Alerts for followers (issue 40). The results service tells this node of every read it stored
 * (`observer.applied`); for each runner someone follows, the runner's card (the same numbers every
 * view shows) gives the time, rank and prediction at each point, and each subscribed point with a
 * time is claimed in `alert_sends` — one row per (subscription, point), so with several nodes and
 * repeated reads one message goes out per passing, and a corrected time sends one corrected
 * message. The work runs behind ingest's acknowledgement: one chain of rounds per node (a round
 * takes every runner touched since the previous one: one query for the subscriptions, one
 * statement claims the messages, one statement stores the round's e-mails in the outbox), and
 * the push messages claimed go to a pool that sends them while the next round is claimed.
 */
export function createAlertsService(deps: AlertsDeps) {
  const { database, log } = deps;
  let chain: Promise<void> = Promise.resolve();
  let vapid: Promise<repo.VapidKeys> | null = null;
  const vapidKeys = () => {
    vapid ??= repo.vapidKeys(database, makeVapidKeys).catch((e: unknown) => {
      vapid = null;
      throw e;
    });
    return vapid;
  };
  const sent = { email: 0, push: 0, failed: 0 };

  async function deliverPush(sub: repo.ActiveSubscription, card: AthleteCard, passing: AlertPassing) {
    const words = alertWords(card, passing, sub.lng, deps.publicUrl, sub.token);
    const status = await sendPush(
      { endpoint: sub.endpoint!, p256dh: sub.p256dh!, auth: sub.auth! },
      JSON.stringify(alertPush(words, passing)),
      {
        vapid: await vapidKeys(),
        subject: deps.vapidSubject,
        egress: deps.egress,
        ttlSeconds: 3600,
        timeoutMs: 10_000,
      },
    );
    if (status === 404 || status === 410) await repo.dropSubscription(database, sub.id);
    if (status !== null && status >= 200 && status < 300) sent.push++;
    else sent.failed++;
  }

  /**
   * The push messages claimed and not yet sent, oldest first, sent {@link PUSH_CONCURRENCY} at
   * a time by workers that live while there is work.
   */
  const pushQueue: (() => Promise<void>)[] = [];
  let pushHead = 0;
  let workers = 0;
  let drained: Promise<void> = Promise.resolve();
  let drainedResolve: (() => void) | null = null;
  function enqueuePush(jobs: (() => Promise<void>)[]) {
    if (!jobs.length) return;
    pushQueue.push(...jobs);
    if (!drainedResolve) drained = new Promise<void>((resolve) => (drainedResolve = resolve));
    while (workers < PUSH_CONCURRENCY && workers < pushQueue.length - pushHead) {
      workers++;
      void (async () => {
        while (pushHead < pushQueue.length) {
          const job = pushQueue[pushHead]!;
          pushQueue[pushHead++] = undefined as never;
          await job();
        }
        workers--;
        if (!workers) {
          pushQueue.length = 0;
          pushHead = 0;
          drainedResolve?.();
          drainedResolve = null;
        }
      })();
    }
  }

  /** The passings of a runner's card, by point key (start from the read itself). */
  function passingsOf(card: AthleteCard, touched: Touched): Map<string, Omit<AlertPassing, 'corrected'>> {
    const out = new Map<string, Omit<AlertPassing, 'corrected'>>();
    if (touched.start !== undefined)
      out.set('start', { pointKey: 'start', netMs: 0, timeOfDay: touched.start, rank: null });
    card.race.points.forEach((point, k) => {
      const split = card.splits[k];
      if (split?.netMs === null || split?.netMs === undefined) return;
      out.set(point.key, {
        pointKey: point.key,
        netMs: split.netMs,
        timeOfDay: split.timeOfDay,
        rank: split.rankOverall,
      });
    });
    return out;
  }

  async function process(touched: Map<string, Touched>) {
    const subs = await repo.subscriptionsFor(database, [...touched.keys()]);
    const byKey = new Map<string, repo.ActiveSubscription[]>();
    for (const s of subs) {
      const list = byKey.get(s.trackingKey);
      if (list) list.push(s);
      else byKey.set(s.trackingKey, [s]);
    }
    const wanted: {
      sub: repo.ActiveSubscription;
      card: AthleteCard;
      passing: Omit<AlertPassing, 'corrected'>;
    }[] = [];
    for (const [key, list] of byKey) {
      const t = touched.get(key)!;
      const card = await deps.card(t.db, key).catch(() => null);
      if (!card) continue;
      const passings = passingsOf(card, t);
      for (const sub of list) {
        for (const pointKey of sub.points) {
          const passing = passings.get(pointKey);
          if (passing) wanted.push({ sub, card, passing });
        }
      }
    }
    // One statement claims the batch's messages (several nodes, one row each).
    const claims = await repo.claimSends(
      database,
      wanted.map((w) => ({
        subscriptionId: w.sub.id,
        pointKey: w.passing.pointKey,
        timeMs: w.passing.netMs,
        readAtMs: touched.get(w.sub.trackingKey)!.readAt,
        seq: touched.get(w.sub.trackingKey)!.seq,
      })),
    );
    const mails: Mail[] = [];
    /** A subscription's messages of the round, sent in the order of the course (one job). */
    const pushes = new Map<
      string,
      { sub: repo.ActiveSubscription; card: AthleteCard; alerts: AlertPassing[] }
    >();
    for (const { sub, card, passing } of wanted) {
      const claim = claims.get(`${sub.id}|${passing.pointKey}`);
      if (!claim) continue;
      const alert = { ...passing, corrected: claim === 'corrected' };
      if (sub.channel === 'email') {
        mails.push(alertMail(sub.email!, alertWords(card, alert, sub.lng, deps.publicUrl, sub.token)));
        continue;
      }
      const job = pushes.get(sub.id);
      if (job) job.alerts.push(alert);
      else pushes.set(sub.id, { sub, card, alerts: [alert] });
    }
    // The pushes start at once; the e-mails of the round are stored in one statement meanwhile.
    enqueuePush(
      [...pushes.values()].map(({ sub, card, alerts }) => async () => {
        for (const alert of alerts) {
          await deliverPush(sub, card, alert).catch((error: unknown) => {
            sent.failed++;
            log.warn({ err: error, subscription: sub.id }, 'alert not sent');
          });
        }
      }),
    );
    if (mails.length) {
      await deps.sendMany(mails).then(
        () => {
          sent.email += mails.length;
        },
        (error: unknown) => {
          sent.failed += mails.length;
          log.warn({ err: error, mails: mails.length }, 'alert e-mails not stored');
        },
      );
    }
  }

  /**
   * The runners touched since the last round, merged: under load a round takes every read that
   * came while the previous one ran (one query for all of them, not one per read).
   */
  let pending = new Map<string, Touched>();
  let running = false;
  function queue(touched: Map<string, Touched>) {
    for (const [key, t] of touched) {
      const known = pending.get(key);
      pending.set(
        key,
        known
          ? {
              db: t.db,
              readAt: Math.min(known.readAt, t.readAt),
              start: t.start ?? known.start,
              seq: Math.max(known.seq, t.seq),
            }
          : t,
      );
    }
    if (running) return;
    running = true;
    chain = (async () => {
      while (pending.size) {
        const round = pending;
        pending = new Map();
        await process(round).catch((error: unknown) => log.warn({ err: error }, 'alerts failed'));
      }
      running = false;
    })();
  }

  const observer: ResultsObserver = {
    applied(ctx: ContextState, stored: readonly PassingRow[]) {
      const readAt = Date.now();
      const touched = new Map<string, Touched>();
      for (const passing of stored) {
        const race = ctx.raceOf(passing);
        if (!race) continue;
        const i = passing.chip ? race.byChip.get(passing.chip) : race.byBib.get(passing.bib ?? '');
        if (i === undefined) continue;
        const key = race.participants[i]!.trackingKey;
        const entry = touched.get(key) ?? { db: ctx.context.db, readAt, seq: 0 };
        entry.seq = Math.max(entry.seq, passing.seq);
        const point = race.points.find((p) => p.key === passing.pointId);
        if (point?.isStart && !passing.deleted) entry.start = passing.timeMs;
        touched.set(key, entry);
      }
      if (touched.size) queue(touched);
    },
  };

  return {
    observer,
    /** Sent since start (the bench reads it). */
    stats: () => ({ ...sent }),
    /** Waits for the alerts queued so far, sent (tests, the bench, closing). */
    async idle() {
      for (;;) {
        const [c, d] = [chain, drained];
        await c;
        await d;
        if (c === chain && d === drained && !running && !workers) return;
      }
    },
    publicKey: async () => (await vapidKeys()).publicKey,

    async subscribe(input: AlertSubscribe & { lng: 'en' | 'fr' }): Promise<AlertSubscribed> {
      const accepts = await repo.runnerAccepts(database, input.trackingKey);
      if (accepts === null) throw errors.notFound('ATHLETE_NOT_FOUND', 'No such runner');
      if (!accepts) throw errors.conflict('ALERTS_OFF', 'This runner turned alerts off');
      if (input.channel === 'push') {
        await repo.subscribe(database, {
          trackingKey: input.trackingKey,
          channel: 'push',
          email: null,
          endpoint: input.subscription.endpoint,
          p256dh: input.subscription.keys.p256dh,
          auth: input.subscription.keys.auth,
          points: input.points,
          lng: input.lng,
          token: token(),
        });
        return { channel: 'push', confirmationNeeded: false };
      }
      const email = input.email.trim().toLowerCase();
      const state = await repo.ensureEmail(database, email, token());
      await repo.subscribe(database, {
        trackingKey: input.trackingKey,
        channel: 'email',
        email,
        endpoint: null,
        p256dh: null,
        auth: null,
        points: input.points,
        lng: input.lng,
        token: token(),
      });
      if (!state.confirmed) await deps.send(confirmMail(email, input.lng, deps.publicUrl, state.token));
      return { channel: 'email', confirmationNeeded: !state.confirmed };
    },

    async confirm(confirmToken: string): Promise<void> {
      if (!(await repo.confirmEmail(database, confirmToken)))
        throw errors.notFound('ALERT_TOKEN_NOT_FOUND', 'This link is not valid');
    },

    async unsubscribe(unsubscribeToken: string): Promise<void> {
      if (!(await repo.unsubscribe(database, unsubscribeToken)))
        throw errors.notFound('ALERT_TOKEN_NOT_FOUND', 'No alerts under this link');
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
