import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../lib/zod-routes.ts';
import type { AuthUser } from '../plugins/auth-context.ts';
import { allows } from '../policy/policy.ts';
import { channelType, isSocketId, signChannel, signUser } from './protocol.ts';

const authBody = z.object({
  socket_id: z.string().refine(isSocketId, 'must look like 123.456'),
  channel_name: z.string().refine((name) => !('error' in channelType(name)), 'invalid channel name'),
});

const ORG_CHANNEL = /^(private|presence)-org-(.+)$/;

/** The name other members see in a presence channel. */
function displayName(user: AuthUser): string {
  const named = user as AuthUser & { name?: unknown; firstName?: unknown; lastName?: unknown };
  if (typeof named.name === 'string' && named.name) return named.name;
  const full = [named.firstName, named.lastName].filter((p) => typeof p === 'string' && p).join(' ');
  return full || user.email;
}

export interface AuthRouteOptions {
  key: string;
  secret: string;
  /** Base64 master key of end-to-end encrypted channels (REALTIME_ENCRYPTION_MASTER_KEY). */
  encryptionMasterKey?: string | undefined;
}

const userAuthBody = z.object({ socket_id: z.string().refine(isSocketId, 'must look like 123.456') });

/** A channel authorization ("Authorizing users" in the Pusher docs). */
const channelAuthAnswer = z.object({
  auth: z.string().describe('`key:signature`'),
  channel_data: z.string().optional().describe('Presence channels: the member, as JSON'),
  shared_secret: z.string().optional().describe('Encrypted channels: the channel’s secret (base64)'),
});
/** A user authentication (pusher-js `signin()`). */
const userAuthAnswer = z.object({ auth: z.string(), user_data: z.string() });

/**
 * `POST /api/realtime/auth`: the endpoint of pusher-js `channelAuthorization` (form-encoded
 * `socket_id` and `channel_name`; JSON accepted too). Signed-in users only. `private-user-{sub}`
 * is the personal channel of spec §1/§7, granted to that user alone; `private-org-{id}` and
 * `presence-org-{id}` follow the `read PresenceChannel` ability of the organisation. Anything
 * else is refused. Answers `{auth, channel_data?}` ("Authorizing users" in the Pusher docs).
 */
export async function realtimeAuthRoute(fastify: FastifyInstance, opts: AuthRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
  }

  app.post(
    '/api/realtime/auth',
    {
      bodyLimit: 8 * 1024,
      schema: { access: 'signed-in', body: afterAccess(authBody), response: { 200: channelAuthAnswer } },
    },
    async (request, reply) => {
      // Until the identity plugin sets them, `user` and `ability` may be undefined: anonymous.
      const user = request.user ?? null;
      if (!user) throw errors.unauthorized('Sign in to use private channels');
      const { socket_id: socketId, channel_name: channel } = checked(request, 'body');
      reply.header('cache-control', 'no-store');
      if (channel === `private-user-${user.sub}`)
        return { auth: signChannel(opts.key, opts.secret, socketId, channel) };
      if (channel === `private-encrypted-user-${user.sub}`) {
        // End-to-end encrypted personal channel: the client decrypts with the channel's shared
        // secret, SHA-256(channel name ‖ master key), as the official SDKs derive it.
        if (!opts.encryptionMasterKey) throw errors.forbidden('Encrypted channels are not configured');
        const sharedSecret = createHash('sha256')
          .update(Buffer.concat([Buffer.from(channel), Buffer.from(opts.encryptionMasterKey, 'base64')]))
          .digest('base64');
        return { auth: signChannel(opts.key, opts.secret, socketId, channel), shared_secret: sharedSecret };
      }
      const org = ORG_CHANNEL.exec(channel);
      const organisationId = org?.[2];
      if (!org || !organisationId) throw errors.forbidden(`No access to ${channel}`);
      const allowed = allows(request, 'read', 'PresenceChannel', { organisationId });
      if (!allowed) throw errors.forbidden(`No access to ${channel}`);
      if (org[1] === 'private') return { auth: signChannel(opts.key, opts.secret, socketId, channel) };
      const channelData = JSON.stringify({ user_id: user.sub, user_info: { name: displayName(user) } });
      return {
        auth: signChannel(opts.key, opts.secret, socketId, channel, channelData),
        channel_data: channelData,
      };
    },
  );

  /**
   * `POST /api/realtime/user-auth`: the endpoint of pusher-js `userAuthentication` (`signin()`):
   * the signed-in user's `user_data` (`{id: sub}`) signed for this socket. The user's
   * `#server-to-user-{sub}` channel is then their personal channel (`app.realtime.sendToUser`).
   */
  app.post(
    '/api/realtime/user-auth',
    {
      bodyLimit: 8 * 1024,
      schema: { access: 'signed-in', body: afterAccess(userAuthBody), response: { 200: userAuthAnswer } },
    },
    async (request, reply) => {
      const user = request.user ?? null;
      if (!user) throw errors.unauthorized('Sign in to authenticate realtime connections');
      const { socket_id: socketId } = checked(request, 'body');
      reply.header('cache-control', 'no-store');
      const userData = JSON.stringify({ id: user.sub, user_info: { name: displayName(user) } });
      return { auth: signUser(opts.key, opts.secret, socketId, userData), user_data: userData };
    },
  );
}
