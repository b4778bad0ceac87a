/**
 * Test-only helpers for the realtime tests (imported by `*.test.ts` files, never by the server):
 * a listening app with the realtime plugin, a stand-in identity hook, pusher-js and pusher SDK
 * clients pointed at it.
 */

import type { AddressInfo } from 'node:net';
import { type AbilityUser, abilityFromRules, rulesFor } from '@tempora/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import PusherServer from 'pusher';
import Pusher, { type Channel, type Options } from 'pusher-js';
import { WebSocket } from 'ws';
import { testConfig } from '../../test/helpers.ts';
import { zodSerializerCompiler, zodValidatorCompiler } from '../lib/zod-routes.ts';
import { errorsPlugin } from '../plugins/errors.ts';
import { type RealtimePluginOptions, realtimePlugin } from './plugin.ts';

export const TEST_USER_HEADER = 'x-test-user';

export interface TestNode {
  app: FastifyInstance;
  port: number;
  config: ReturnType<typeof testConfig>;
  close(): Promise<void>;
}

/**
 * A listening app holding only the error handler and the realtime plugin. Until the identity
 * plugin lands, an onRequest hook stands in for it: the `x-test-user` header (JSON AbilityUser)
 * becomes `request.user` and `request.ability`.
 */
export async function startNode(
  overrides: Record<string, string> = {},
  options: RealtimePluginOptions = {},
): Promise<TestNode> {
  // No database here to make the install's secret: a test's own (issue 42: never a default).
  const config = testConfig({ REALTIME_SECRET: 'realtime-test-harness-secret', ...overrides });
  const app = Fastify({ logger: false });
  app.decorate('config', config);
  app.decorateRequest('user', null);
  app.decorateRequest('ability', null as never);
  app.addHook('onRequest', async (request) => {
    const header = request.headers[TEST_USER_HEADER];
    if (typeof header !== 'string') return;
    const user = JSON.parse(header) as AbilityUser;
    request.user = { ...user, issuer: 'test' };
    request.ability = abilityFromRules(rulesFor(user));
  });
  // As app.ts: routes declare zod schemas (issue 30), answers checked strictly.
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler({ strict: true, log: () => app.log }));
  await app.register(errorsPlugin);
  await app.register(realtimePlugin, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, config, close: () => app.close() };
}

/** An AbilityUser for the stand-in identity header. */
export function testUser(sub: string, memberships: AbilityUser['memberships'] = []): AbilityUser {
  return {
    sub,
    email: `${sub}@example.org`,
    isPlatformStaff: false,
    isConfirmationAccount: false,
    memberships,
  };
}

/** A pusher-js client (the Node build) for a test node, as the web client configures it. */
export function pusherClient(node: TestNode, user?: AbilityUser, extra: Partial<Options> = {}): Pusher {
  const headers: Record<string, string> = user ? { [TEST_USER_HEADER]: JSON.stringify(user) } : {};
  return new Pusher(node.config.REALTIME_KEY, {
    cluster: 'eu',
    wsHost: '127.0.0.1',
    wsPort: node.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: `http://127.0.0.1:${node.port}/api/realtime/auth`,
      transport: 'ajax',
      headers,
    },
    ...extra,
  });
}

/** The official server SDK pointed at a test node (only host and port changed). */
export function pusherServer(node: TestNode, secret = node.config.REALTIME_SECRET): PusherServer {
  return new PusherServer({
    appId: node.config.REALTIME_APP_ID,
    key: node.config.REALTIME_KEY,
    secret,
    host: '127.0.0.1',
    port: String(node.port),
    useTLS: false,
  });
}

/** Resolves when the client is connected. */
export function connected(client: Pusher): Promise<void> {
  return new Promise((resolve, reject) => {
    if (client.connection.state === 'connected') return resolve();
    client.connection.bind('connected', () => resolve());
    client.connection.bind('failed', () => reject(new Error('pusher-js failed to connect')));
  });
}

/** Subscribes and resolves with the subscription_succeeded data, or rejects with the subscription_error. */
export function subscribed(client: Pusher, name: string): Promise<{ channel: Channel; data: unknown }> {
  const channel = client.subscribe(name);
  return new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', (data: unknown) => resolve({ channel, data }));
    channel.bind('pusher:subscription_error', (error: unknown) =>
      reject(Object.assign(new Error('subscription_error'), { detail: error })),
    );
  });
}

/** Resolves with the data of the next `event` on a channel. */
export function nextEvent<T = unknown>(channel: Channel, event: string): Promise<T> {
  return new Promise((resolve) => {
    const handler = (data: T) => {
      channel.unbind(event, handler);
      resolve(data);
    };
    channel.bind(event, handler);
  });
}

/** Polls `check` until it returns true (occupancy is updated asynchronously). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw protocol client (ws) that records what it receives, for protocol-level cases. */
export interface RawClient {
  ws: WebSocket;
  /** Resolves with the next received message matching `predicate` (already received ones count). */
  next(predicate: (message: RawMessage) => boolean, timeoutMs?: number): Promise<RawMessage>;
  closed: Promise<{ code: number; reason: string }>;
}
export interface RawMessage {
  event: string;
  channel?: string;
  data?: unknown;
}

/** Opens a raw WebSocket on a test node (default path: the app key with protocol 7). */
export function rawClient(
  node: TestNode,
  path = `/app/${node.config.REALTIME_KEY}?protocol=7&client=js&version=8.6.0`,
): RawClient {
  const ws = new WebSocket(`ws://127.0.0.1:${node.port}${path}`);
  const received: RawMessage[] = [];
  const waiters: { predicate: (m: RawMessage) => boolean; resolve: (m: RawMessage) => void }[] = [];
  ws.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as RawMessage;
    const waiter = waiters.find((w) => w.predicate(message));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    } else received.push(message);
  });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    ws,
    closed,
    next(predicate, timeoutMs = 5000) {
      const index = received.findIndex(predicate);
      if (index >= 0) return Promise.resolve(received.splice(index, 1)[0]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching message')), timeoutMs);
        waiters.push({
          predicate,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
  };
}

/** The socket id from a raw client's `pusher:connection_established`. */
export async function rawSocketId(client: RawClient): Promise<string> {
  const established = await client.next((m) => m.event === 'pusher:connection_established');
  return (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
}

/**
 * A raw client of a listening app subscribed to `channels` (public ones), once every subscription
 * succeeded; `received` collects the events that follow, `bytes` the frames' sizes.
 */
export async function rawSubscriber(
  node: Pick<TestNode, 'port' | 'config'>,
  channels: string[],
): Promise<RawClient & { events: RawMessage[]; bytes: () => number }> {
  const client = rawClient(node as TestNode);
  const events: RawMessage[] = [];
  let bytes = 0;
  await rawSocketId(client);
  for (const channel of channels) {
    client.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
    await client.next((m) => m.event === 'pusher_internal:subscription_succeeded' && m.channel === channel);
  }
  client.ws.on('message', (raw) => {
    const text = raw.toString();
    bytes += Buffer.byteLength(text);
    const message = JSON.parse(text) as RawMessage;
    if (!message.event.startsWith('pusher')) events.push(message);
  });
  return { ...client, events, bytes: () => bytes };
}
