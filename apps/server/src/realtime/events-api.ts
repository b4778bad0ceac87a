import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, errors } from '../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../lib/zod-routes.ts';
import type { ChannelStats, Envelope } from './adapters/types.ts';
import { parseQuery, verifyRequest } from './http-signature.ts';
import { channelType, SERVER_TO_USER_PREFIX } from './protocol.ts';
import { type RealtimeService, validateEnvelope } from './service.ts';

const INVALID_JSON = Symbol('invalid JSON');

/** "Batch events are limited to 10 events per request". */
const MAX_BATCH = 10;

const triggerBody = z.object({
  name: z.string(),
  data: z.string(),
  channels: z.array(z.string()).optional(),
  channel: z.string().optional(),
  socket_id: z.string().optional(),
  info: z.string().optional(),
});
const batchBody = z.object({
  batch: z.array(triggerBody.omit({ channels: true }).extend({ channel: z.string() })),
});

/**
 * Every part is declared `afterAccess`: the signature check (the preHandler below) comes first,
 * so an unsigned request gets its 401 whatever it sent. The bodies are read raw for the signature
 * (body_md5) by the content type parser below; the schemas only describe and check the parsed JSON.
 */
const appParams = z.object({ appId: z.string() });
const userParams = appParams.extend({ userId: z.string() });
const channelParams = appParams.extend({ channelName: z.string() });
/** The signature's own parameters (auth_key, auth_signature, …) are also in the query. */
const channelsQuery = z.object({ filter_by_prefix: z.string().optional(), info: z.string().optional() });
const infoQuery = z.object({ info: z.string().optional() });
const statsSchema = z.object({
  subscription_count: z.number().optional(),
  user_count: z.number().optional(),
});
const triggerAnswer = z.object({ channels: z.record(z.string(), statsSchema).optional() });
const batchAnswer = z.object({ batch: z.array(statsSchema).optional() });
const channelsAnswer = z.object({ channels: z.record(z.string(), statsSchema) });
const channelAnswer = statsSchema.extend({ occupied: z.boolean() });
const usersAnswer = z.object({ users: z.array(z.object({ id: z.string() })) });

export interface EventsApiOptions {
  appId: string;
  key: string;
  secret: string;
  realtime: RealtimeService;
}

/** The `info` attributes asked for (`subscription_count`, `user_count`). */
function infoOf(info: string | undefined): Set<string> {
  return new Set(
    (info ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

function statsJson(channel: string, stats: ChannelStats, info: Set<string>) {
  const out: { subscription_count?: number; user_count?: number } = {};
  if (info.has('subscription_count')) out.subscription_count = stats.subscriptionCount;
  if (info.has('user_count') && channel.startsWith('presence-')) out.user_count = stats.userCount ?? 0;
  return out;
}

function envelopeOf(channels: string[], body: z.infer<typeof triggerBody>): Envelope {
  const envelope: Envelope = { channels, event: body.name, data: body.data };
  if (body.socket_id) envelope.excludeSocketId = body.socket_id;
  return envelope;
}

/**
 * The Pusher HTTP API ("HTTP API reference"): trigger and batch events, channel lists, channel
 * occupancy and presence users, every request signed with the app secret (401 otherwise), so
 * the official server libraries work against this server by changing only host and port.
 */
export async function eventsApiRoutes(fastify: FastifyInstance, opts: EventsApiOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const rawBodies = new WeakMap<FastifyRequest, string>();
  // The signature covers the exact body bytes (body_md5): keep them before parsing.
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    rawBodies.set(request, body as string);
    if (!body) return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, INVALID_JSON); // reported after the signature check: strangers learn nothing
    }
  });

  app.addHook('preHandler', async (request) => {
    if ((request.params as { appId?: string }).appId !== opts.appId) {
      throw errors.notFound('REALTIME_APP_NOT_FOUND', 'Unknown app id');
    }
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const check = verifyRequest({
      key: opts.key,
      secret: opts.secret,
      method: request.method,
      path,
      params: parseQuery(queryAt < 0 ? '' : request.url.slice(queryAt + 1)),
      rawBody: rawBodies.get(request) ?? '',
    });
    if (!check.ok)
      throw new AppError(401, 'REALTIME_SIGNATURE_INVALID', `Invalid signature (${check.reason})`);
    if (request.body === INVALID_JSON) throw errors.badRequest('INVALID_JSON', 'The body is not valid JSON');
  });

  const { realtime } = opts;
  const bodyLimit = 256 * 1024;

  app.post(
    '/apps/:appId/events',
    {
      bodyLimit,
      schema: {
        access: 'key',
        params: afterAccess(appParams),
        body: afterAccess(triggerBody),
        response: { 200: triggerAnswer },
      },
    },
    async (request) => {
      const body = checked(request, 'body');
      const channels = body.channels ?? (body.channel ? [body.channel] : []);
      await realtime.publishEnvelope(envelopeOf(channels, body));
      const info = infoOf(body.info);
      if (info.size === 0) return {};
      const entries = await Promise.all(
        channels.map(async (c) => [c, statsJson(c, await realtime.channel(c), info)] as const),
      );
      return { channels: Object.fromEntries(entries) };
    },
  );

  app.post(
    '/apps/:appId/batch_events',
    {
      bodyLimit,
      schema: {
        access: 'key',
        params: afterAccess(appParams),
        body: afterAccess(batchBody),
        response: { 200: batchAnswer },
      },
    },
    async (request) => {
      const { batch } = checked(request, 'body');
      if (batch.length === 0 || batch.length > MAX_BATCH) {
        throw errors.badRequest('REALTIME_BATCH_INVALID', `A batch holds 1 to ${MAX_BATCH} events`);
      }
      const envelopes = batch.map((item) => envelopeOf([item.channel], item));
      // Validate every event before publishing any, so a bad batch publishes nothing.
      for (const envelope of envelopes) validateEnvelope(envelope);
      for (const envelope of envelopes) await realtime.publishEnvelope(envelope);
      if (!batch.some((item) => item.info)) return {};
      return {
        batch: await Promise.all(
          batch.map(async (item) =>
            statsJson(item.channel, await realtime.channel(item.channel), infoOf(item.info)),
          ),
        ),
      };
    },
  );

  // terminateUserConnections ("User authentication"): every connection signed in as the user,
  // on every node, is closed (4009: the client does not reconnect by itself).
  app.post(
    '/apps/:appId/users/:userId/terminate_connections',
    {
      bodyLimit,
      schema: { access: 'key', params: afterAccess(userParams), response: { 200: z.object({}) } },
    },
    async (request) => {
      const { userId } = checked(request, 'params');
      const channel = `${SERVER_TO_USER_PREFIX}${userId}`;
      if ('error' in channelType(channel))
        throw errors.badRequest('REALTIME_USER_INVALID', 'Invalid user id');
      await realtime.terminateUserConnections(userId);
      return {};
    },
  );

  app.get(
    '/apps/:appId/channels',
    {
      schema: {
        access: 'key',
        params: afterAccess(appParams),
        querystring: afterAccess(channelsQuery),
        response: { 200: channelsAnswer },
      },
    },
    async (request) => {
      const query = checked(request, 'querystring');
      const prefix = query.filter_by_prefix ?? '';
      const info = infoOf(query.info);
      if (info.has('user_count') && !prefix.startsWith('presence-')) {
        throw errors.badRequest('REALTIME_INFO_INVALID', 'user_count needs filter_by_prefix=presence-');
      }
      const channels = await realtime.channels(prefix);
      return {
        channels: Object.fromEntries([...channels].map(([name, s]) => [name, statsJson(name, s, info)])),
      };
    },
  );

  app.get(
    '/apps/:appId/channels/:channelName',
    {
      schema: {
        access: 'key',
        params: afterAccess(channelParams),
        querystring: afterAccess(infoQuery),
        response: { 200: channelAnswer },
      },
    },
    async (request) => {
      const { channelName } = checked(request, 'params');
      const info = infoOf(checked(request, 'querystring').info);
      const presence = checkChannel(channelName);
      if (info.has('user_count') && !presence) {
        throw errors.badRequest('REALTIME_INFO_INVALID', 'user_count is only for presence channels');
      }
      const stats = await realtime.channel(channelName);
      return { occupied: stats.subscriptionCount > 0, ...statsJson(channelName, stats, info) };
    },
  );

  app.get(
    '/apps/:appId/channels/:channelName/users',
    { schema: { access: 'key', params: afterAccess(channelParams), response: { 200: usersAnswer } } },
    async (request) => {
      const { channelName } = checked(request, 'params');
      if (!checkChannel(channelName)) {
        throw errors.badRequest('REALTIME_NOT_PRESENCE', 'Users are only listed for presence channels');
      }
      return { users: (await realtime.members(channelName)).map((m) => ({ id: m.id })) };
    },
  );
}

/** Validates a channel name from the path; true for presence channels. */
function checkChannel(name: string): boolean {
  const kind = channelType(name);
  if ('error' in kind) throw errors.badRequest('REALTIME_CHANNEL_INVALID', kind.error);
  return kind.type === 'presence';
}
