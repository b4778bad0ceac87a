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
  card: (trackingKey: string) => Promise<AthleteCard>;
  send: (mail: Mail) => Promise<void>;
  publicUrl: string;
  egress: EgressPolicy;
  /** The VAPID `sub` claim: a contact of the server's operator (RFC 8292 §2.1). */
  vapidSubject: string;
}

const token = () => crypto.randomBytes(18).toString('base64url');
/** Messages sent at once by a node. */
const DELIVERY_CONCURRENCY = 16;

/** One runner's passings in a batch of reads (what the observer queues). */
interface Touched {
  /** The start read's time of day, when the batch held one. */
  start?: number;
  readAt: number;
}

/**
 * Alerts for followers (issue 40). The results service tells this node of every read it stored
 * (`observer.applied`); for each runner someone follows, the runner's card (the same numbers every
 * view shows) gives the time, rank and prediction at each point, and each subscribed point with a
 * time is claimed in `alert_sends` — one row per (subscription, point), so with several nodes and
 * repeated reads one message goes out per passing, and a corrected time sends one corrected
 * message. The work runs behind ingest's acknowledgement, in one chain per node.
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

  async function deliver(sub: repo.ActiveSubscription, card: AthleteCard, passing: AlertPassing) {
    const words = alertWords(card, passing, sub.lng, deps.publicUrl, sub.token);
    if (sub.channel === 'email') {
      await deps.send(alertMail(sub.email!, words));
      sent.email++;
      return;
    }
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
    for (const s of subs) byKey.set(s.trackingKey, [...(byKey.get(s.trackingKey) ?? []), s]);
    const wanted: {
      sub: repo.ActiveSubscription;
      card: AthleteCard;
      passing: Omit<AlertPassing, 'corrected'>;
    }[] = [];
    for (const [key, list] of byKey) {
      const card = await deps.card(key).catch(() => null);
      if (!card) continue;
      const passings = passingsOf(card, touched.get(key)!);
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
      })),
    );
    const deliveries = wanted.flatMap(({ sub, card, passing }) => {
      const claim = claims.get(`${sub.id}|${passing.pointKey}`);
      if (!claim) return [];
      return [
        () =>
          deliver(sub, card, { ...passing, corrected: claim === 'corrected' }).catch((error: unknown) => {
            sent.failed++;
            log.warn({ err: error, subscription: sub.id }, 'alert not sent');
          }),
      ];
    });
    // A few at a time: a push service answers in tens of milliseconds, the messages of a batch
    // (a runner followed by many) should not wait for each other.
    let next = 0;
    const worker = async () => {
      while (next < deliveries.length) await deliveries[next++]!();
    };
    await Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, deliveries.length) }, worker));
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
        known ? { readAt: Math.min(known.readAt, t.readAt), start: t.start ?? known.start } : t,
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
        const entry = touched.get(key) ?? { readAt };
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
    /** Waits for the alerts queued so far (tests, the bench, closing). */
    idle: () => chain,
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
