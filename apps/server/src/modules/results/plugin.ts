import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MAX_PATCH_BYTES } from './context-state.ts';
import { channelOccupancy } from './occupancy.ts';
import type { Results } from './port.ts';
import { redisLeases } from './publisher-lease.ts';
import { createReloadCommand } from './reload.ts';
import { resultsRoutes } from './routes.ts';
import { type ClusterNotice, createResultsService, type ResultsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Timing and results: live state per context, ingest, reports (issue 6), and the one reload
     * command every change goes through (`reload`, `correction`: issue 26, ./reload.ts).
     */
    results: Results;
  }
}

/**
 * The results module: routes and the live results service publishing through `app.realtime`
 * (the demo races are seeded by `seed/plugin.ts`, registered right after this module).
 */
export const resultsModule = fp(
  async (app: FastifyInstance) => {
    // Issue 20, one publisher per context: with nodes sharing Redis (the realtime bus), a lease
    // per context names the node that publishes its changes; the others tell it of the reads
    // they store and follow its publications (service.ts `followerState`). Without the bus each
    // node publishes what it stores.
    const node = randomUUID();
    const redisUrl = app.config.REDIS_URL;
    const leases =
      app.realtime.adapter === 'redis' && redisUrl
        ? redisLeases({
            url: redisUrl,
            prefix: app.config.RESULTS_LEASE_REDIS_PREFIX,
            leaseMs: app.config.RESULTS_LEASE_MS,
            log: app.log,
          })
        : undefined;
    const send = (notice: ClusterNotice) => {
      app.realtime
        .broadcastInternal('results-cluster', JSON.stringify({ from: node, notice }))
        .catch((err) => app.log.warn({ err }, 'results: a notice to the other nodes failed'));
    };
    // Issue 28: only occupied channels get a context's changes. The cluster's occupancy (Redis
    // shares, or the upstream Pusher service's channel list) is asked every 250 ms (1 s upstream:
    // its API is rate-limited); a channel's first subscriber on any node is announced at once.
    const occupancy = channelOccupancy({
      localCount: (channel) => app.realtime.localCount(channel),
      ...(app.realtime.adapter === 'local'
        ? {}
        : { clusterChannels: (prefix: string) => app.realtime.channels(prefix) }),
      refreshMs: app.realtime.adapter === 'pusher-http' ? 1000 : 250,
      onError: (err) => app.log.warn({ err }, 'results: asking the channels occupied failed'),
    });
    app.addHook('onClose', async () => occupancy.close?.());
    // An upstream Pusher service's occupancy webhooks (POST /api/realtime/webhooks) apply at once;
    // its channel list is then asked every 10 s only, as a resync.
    if (app.realtime.adapter === 'pusher-http')
      app.realtime.onUpstreamOccupancy((channel, occupied) => occupancy.heard?.(channel, occupied));
    if (app.realtime.adapter === 'redis') {
      app.realtime.onLocalOccupied((channel) => {
        if (channel.startsWith('results-'))
          app.realtime.broadcastInternal('results-occupied', channel).catch(() => undefined);
      });
      app.realtime.onInternal('results-occupied', (channel) => occupancy.announce?.(channel));
    }
    const service = createResultsService({
      database: app.database,
      publisher: app.realtime,
      ...(leases
        ? {
            cluster: {
              leases,
              leaseMs: app.config.RESULTS_LEASE_MS,
              send,
            },
          }
        : {}),
      occupancy,
      publishMs: app.config.RESULTS_PUBLISH_MS,
      snapshots: app.config.RESULTS_SNAPSHOTS,
      maxPatchBytes:
        app.realtime.adapter === 'pusher-http'
          ? MAX_PATCH_BYTES
          : Math.max(MAX_PATCH_BYTES, app.config.RESULTS_PATCH_MAX_BYTES),
    });
    // Setup changes (races, points, participants, statuses, reports) made on one node must reach
    // the others' in-memory state: passings are caught up by seq, but setup is not. Every
    // invalidation is broadcast; the other nodes forget the context and load it again (issue 20).
    const forget = service.invalidate;
    service.invalidate = (db, participants) => {
      forget(db, participants);
      app.realtime.broadcastInternal('results-invalidate', `${node} ${db}`).catch(() => undefined);
    };
    app.realtime.onInternal('results-invalidate', (data) => {
      const [from, db] = data.split(' ', 2);
      if (from !== node && db) forget(db);
    });
    app.realtime.onInternal('results-cluster', (data) => {
      let message: { from?: string; notice?: ClusterNotice };
      try {
        message = JSON.parse(data) as typeof message;
      } catch {
        return;
      }
      if (message.from !== node && message.notice) service.hear(message.notice);
    });
    // Issue 26: the one reload command (forget on every node, reloads, then the correction).
    const reloads = createReloadCommand({
      database: app.database,
      results: service,
      publisher: app.realtime,
      channels: (prefix) => app.realtime.channels(prefix),
      onError: (err) => app.log.warn({ err }, 'results: publishing a reload failed'),
    });
    app.decorate('results', Object.assign(service, reloads) as Results);
    // Changes applied but still in their publication window go out before the node stops; then
    // its leases are given back, so another node takes over at once (not after they expire).
    app.addHook('preClose', async () => {
      await service.stopSnapshots();
      await service.settleAll();
      for (const db of (await leases?.releaseAll()) ?? []) send({ kind: 'released', db });
    });
    app.addHook('onClose', async () => leases?.close());
    await app.register(resultsRoutes, { service: app.results });
    // Issue 20: a node started during a race loads the live events' results before it says it is
    // ready, so the load balancer sends it no spectator before it can answer at once.
    // Issue 27: then, without holding readiness, the finished events' snapshots and main tables.
    // Issue 41: readiness also waits for the finished events' first screens answered from their
    // snapshots (at most FIRST_SCREENS_READY_MS), never for a context to be built.
    app.addHook('onListen', async () => {
      const live = warmLiveContexts(app, service);
      app.readiness.wait('live results', live);
      const finished = live.catch(() => undefined).then(() => warmFinishedContexts(app, service));
      app.readiness.wait(
        'finished results',
        Promise.race([
          finished.then((w) => w.firstScreens),
          new Promise((r) => setTimeout(r, FIRST_SCREENS_READY_MS).unref()),
        ]),
      );
      void finished
        .then((w) => w.done)
        .catch((err) => app.log.warn({ err }, 'results: warming the finished events failed'));
    });
    // The TCP line decoder is started by the devices module: its reads go through the timing
    // front door (devices/ingest.ts) like every other device's. The demo is seeded by seed/plugin.ts.
  },
  { name: 'results', dependencies: ['identity', 'realtime'] },
);

/** Loads the results of every context of a live event, one after the other. */
async function warmLiveContexts(app: FastifyInstance, service: ResultsService): Promise<void> {
  const started = Date.now();
  const rows = await app.database.query<{ db: string; eventId: string }>(
    `SELECT c.db, c.event_id AS "eventId" FROM contexts c JOIN events e ON e.id = c.event_id
      WHERE e.status = 'live' ORDER BY c.db`,
  );
  if (rows.length) await warmFirstScreens(app, new Set(rows.map((r) => r.eventId)), []);
  for (const { db } of rows) {
    const ctx = await service.state(db);
    // The tables too (a 26,000-row ranking takes longer to build than to load): each is cached
    // per version, so the first reader gets it ready-made. A pause between them keeps the node
    // answering liveness checks.
    for (const report of ctx.reports) {
      await ctx.tableSliced(report);
      await new Promise((r) => setImmediate(r));
    }
    // And the compressed body of each overall ranking, as browsers ask for it (the route caches
    // encoded bodies per version).
    for (const report of ctx.reports.filter((r) => r.key === 'LIVE1')) {
      await app.inject({
        url: `/api/results/contexts/${encodeURIComponent(db)}/reports/${encodeURIComponent(report.key)}`,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
    }
  }
  if (rows.length) app.log.info({ contexts: rows.length, ms: Date.now() - started }, 'live results loaded');
}

/** How long after the first pages the finished events' whole tables are warmed (issue 41). */
const WHOLE_BODIES_AFTER_MS = 60_000;
/** The longest readiness waits for the finished events' first screens (issue 41). */
const FIRST_SCREENS_READY_MS = 10_000;

/** The address of an overall ranking's table (the route the web table reads). */
const tableUrl = (head: { eventId: string; group: string; report: string }) =>
  `/api/results/${encodeURIComponent(head.eventId)}/groups/${encodeURIComponent(head.group)}/reports/${encodeURIComponent(head.report)}`;

/**
 * Issue 41: what a spectator's first screen of a results page asks for, asked once through the
 * app itself — the page (its HTML and boot script), each event's detail and report list, each
 * overall ranking's first page (`tables`, encoded and kept by the route) — one at a time, the event
 * loop let in between. After a restart each of these was a first run of its code and a first read
 * of its tables in the database, all paid by the first visitor, in the same second as the
 * warm-up's own work: 4.4 s, then 1.2–1.4 s, before the first rows.
 */
async function warmFirstScreens(
  app: FastifyInstance,
  eventIds: Set<string>,
  tables: string[],
): Promise<void> {
  const urls = [
    '/',
    '/boot.js',
    ...[...eventIds].flatMap((id) => [
      `/api/events/${encodeURIComponent(id)}`,
      `/api/results/${encodeURIComponent(id)}/reportlist`,
    ]),
    ...tables.map((url) => `${url}?offset=0&limit=100`),
  ];
  for (const url of urls) {
    await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Issue 27: the finished events' main tables, in the background after start. A context with a
 * snapshot stored for its current state gets its first screen warmed (`warmFirstScreens`: its
 * event's answers, its overall rankings' first page read from the snapshot and encoded once) —
 * `firstScreens`, which readiness waits for (issue 41: a load balancer then sends the first
 * spectator to a node that answers at once, and the warm-up no longer runs in the same second as
 * that spectator's page); one without is loaded afterwards — in slices, one context at a time —
 * which stores its snapshot for the next start, its tables then in memory for the first reader
 * (`done`; readiness never waits for a build). Recent events first.
 * Issue 41: every first page before any whole body, the whole bodies read a few chunks at a time
 * (`snapshotTexts`): the web table asks the first page, then pages of 1,000 rows, never the whole
 * body, and a first visitor right after a restart waited behind its 7 MB (1.2 s for the first rows
 * on a page 0.3 s later). The whole bodies then wait `WHOLE_BODIES_AFTER_MS`: right after the
 * first pages they still took the CPU of a loaded machine from the first visitors.
 */
async function warmFinishedContexts(
  app: FastifyInstance,
  service: Pick<ResultsService, 'snapshot' | 'state' | 'snapshotsWritten'>,
): Promise<{ firstScreens: Promise<void>; done: Promise<void> }> {
  if (!app.config.RESULTS_SNAPSHOTS) return { firstScreens: Promise.resolve(), done: Promise.resolve() };
  const started = Date.now();
  const rows = await app.database.query<{ db: string; eventId: string }>(
    `SELECT c.db, c.event_id AS "eventId" FROM contexts c JOIN events e ON e.id = c.event_id
      WHERE e.status = 'finished' ORDER BY e.end_date DESC, c.db`,
  );
  const urls: string[] = [];
  const toBuild: typeof rows = [];
  const events = new Set<string>();
  for (const row of rows) {
    const snapshot = await service.snapshot(row.db);
    if (!snapshot) {
      toBuild.push(row);
      continue;
    }
    events.add(row.eventId);
    for (const r of snapshot.reports.values()) if (r.head.report === 'LIVE1') urls.push(tableUrl(r.head));
  }
  const firstScreens = rows.length ? warmFirstScreens(app, events, [...urls]) : Promise.resolve();
  const done = firstScreens.then(async () => {
    let built = 0;
    for (const { db } of toBuild) {
      const ctx = await service.state(db);
      await service.snapshotsWritten();
      built++;
      const main = ctx.reports
        .filter((r) => r.key === 'LIVE1')
        .map((r) => tableUrl({ eventId: ctx.context.eventId, group: r.groupKey, report: r.key }));
      await warmFirstScreens(app, new Set([ctx.context.eventId]), main);
      urls.push(...main);
    }
    if (rows.length)
      app.log.info({ contexts: rows.length, built, ms: Date.now() - started }, 'finished results warmed');
    // The whole bodies later (issue 41): read and compressed at once, Boston's 7 MB took the CPU
    // from the restart's first visitors (their first pages, the page's scripts) on a loaded machine.
    // No web page asks for them (its table reads pages of 1,000 rows); an API client may.
    // Not awaited: the first pages are what a caller waits for.
    setTimeout(() => {
      if (!app.server.listening) return;
      void (async () => {
        for (const url of urls) {
          await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
          await new Promise((r) => setImmediate(r));
        }
      })().catch((err) => app.log.warn({ err }, 'results: warming the whole tables failed'));
    }, WHOLE_BODIES_AFTER_MS).unref();
  });
  return { firstScreens, done };
}

/**
 * The finished events' snapshots and main tables warmed now (after the Boston demo's import:
 * seed/plugin.ts), as a start does in the background.
 */
export async function warmFinishedResults(app: FastifyInstance): Promise<void> {
  await (await warmFinishedContexts(app, app.results)).done;
}
