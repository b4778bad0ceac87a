import {
  codeRequestSchema,
  emailRequestSchema,
  forgotAnswerSchema,
  jwksSchema,
  noContentSchema,
  outboxMessageSchema,
  permissionsAnswerSchema,
  profileSavedSchema,
  profileUpdateSchema,
  refreshRequestSchema,
  resetAnswerSchema,
  resetPasswordRequestSchema,
  rulesFor,
  signInRequestSchema,
  signUpAnswerSchema,
  signUpRequestSchema,
  tokenResponseSchema,
  userProfileSchema,
  verifiedAnswerSchema,
} from '@tempora/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errors } from '../errors.ts';
import { afterAccess, checked, type ZodTypeProvider } from '../lib/zod-routes.ts';
import type { LimitRule } from '../plugins/rate-limit.ts';
import type { TokenSigner } from './keys.ts';
import { knownDevices } from './known-device.ts';
import type { Outbox } from './outbox.ts';
import { identityRepository as repo, toProfile } from './repository.ts';
import type { IdentityService } from './service.ts';
import { createSignInGuard } from './sign-in-guard.ts';

export interface IdentityRouteOptions {
  service: IdentityService;
  signer: TokenSigner;
  outbox: Outbox;
}

/** Auth attempts are counted over 15 minutes (README: AUTH_RATE_LIMIT). */
const AUTH_WINDOW_MS = 15 * 60_000;

const AUTH_BODY_LIMIT = 8 * 1024;

/** The identity API (contract: packages/contracts/src/identity.ts). */
export async function identityRoutes(fastify: FastifyInstance, opts: IdentityRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { service, signer, outbox } = opts;
  const { config } = app;
  // Development prints e-mail links on the console (identity/plugin.ts): the answers say so.
  const devMail = config.NODE_ENV === 'development' ? { mailLinksInLog: true as const } : {};
  const rule = (name: string): LimitRule => ({ name, max: config.AUTH_RATE_LIMIT, windowMs: AUTH_WINDOW_MS });
  /**
   * One hit per client address and one per account (issue 13: spraying and stuffing both
   * limited). Sign-in counts its accounts with a backoff instead (sign-in-guard.ts, issue 25).
   */
  const limit = (request: FastifyRequest, reply: FastifyReply, name: string, email?: string) =>
    app.limits.hit(request, reply, rule(name), [`ip:${request.ip}`, ...(email ? [`account:${email}`] : [])]);
  const guard = createSignInGuard(app, {
    devices: knownDevices(signer.deriveKey('known-device')),
    publicUrl: config.publicUrl,
    free: config.AUTH_RATE_LIMIT,
  });
  const signedIn = (request: FastifyRequest) => {
    if (!request.user) throw errors.unauthorized();
    return request.user;
  };
  const bodyLimit = AUTH_BODY_LIMIT;

  app.get(
    '/.well-known/jwks.json',
    { schema: { access: 'public', response: { 200: jwksSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return signer.jwks;
    },
  );

  app.post(
    '/api/auth/sign-up',
    {
      bodyLimit,
      schema: { access: 'public', body: signUpRequestSchema, response: { 201: signUpAnswerSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      await limit(request, reply, 'sign-up', input.email);
      const created = await service.signUp(input);
      return reply.status(201).send({ ...created, ...devMail });
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      bodyLimit,
      schema: { access: 'public', body: codeRequestSchema, response: { 200: verifiedAnswerSchema } },
    },
    async (request) => {
      const { code } = request.body;
      return service.verifyEmail(code);
    },
  );

  app.post(
    '/api/auth/resend-verification',
    { bodyLimit, schema: { access: 'public', body: emailRequestSchema, response: { 202: noContentSchema } } },
    async (request, reply) => {
      const input = request.body;
      await limit(request, reply, 'resend', input.email);
      await service.resendVerification(input);
      return reply.status(202).send();
    },
  );

  app.post(
    '/api/auth/sign-in',
    {
      bodyLimit,
      schema: { access: 'public', body: signInRequestSchema, response: { 200: tokenResponseSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      await limit(request, reply, 'sign-in');
      reply.header('cache-control', 'no-store');
      const user = await repo.findLocalByEmail(app.database, input.email);
      const device = await guard.admit(request, reply, input.email, user);
      const tokens = await service.signIn(input);
      if (user) await guard.succeeded(request, reply, input.email, user.sub, device);
      return tokens;
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      bodyLimit,
      schema: { access: 'public', body: refreshRequestSchema, response: { 200: tokenResponseSchema } },
    },
    async (request, reply) => {
      const { refreshToken } = request.body;
      reply.header('cache-control', 'no-store');
      return service.refresh(refreshToken);
    },
  );

  app.post(
    '/api/auth/sign-out',
    {
      bodyLimit,
      schema: { access: 'public', body: refreshRequestSchema, response: { 204: noContentSchema } },
    },
    async (request, reply) => {
      const { refreshToken } = request.body;
      await service.signOut(refreshToken);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      bodyLimit,
      schema: { access: 'public', body: emailRequestSchema, response: { 202: forgotAnswerSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      await limit(request, reply, 'forgot', input.email);
      await service.forgotPassword(input);
      return reply.status(202).send({ ...devMail });
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      bodyLimit,
      schema: { access: 'public', body: resetPasswordRequestSchema, response: { 200: resetAnswerSchema } },
    },
    async (request, reply) => {
      const input = request.body;
      await limit(request, reply, 'reset');
      const { reset, sub } = await service.resetPassword(input);
      // The browser that proved it reads the account's mail is known from now on, and a running
      // spray's backoff ends (issue 25: the owner on a new device is never kept out for long).
      const user = await repo.findBySub(app.database, sub);
      if (user) await guard.succeeded(request, reply, user.email, sub, null);
      return { reset };
    },
  );

  app.get(
    '/api/user/get',
    { schema: { access: 'signed-in', response: { 200: userProfileSchema } } },
    async (request, reply) => {
      const user = signedIn(request);
      const row = await repo.findBySub(app.database, user.sub);
      if (!row) throw errors.unauthorized();
      reply.header('cache-control', 'no-store');
      return toProfile(row);
    },
  );

  app.post(
    '/api/user/profile',
    {
      bodyLimit: 16 * 1024,
      schema: {
        access: 'signed-in',
        body: afterAccess(profileUpdateSchema),
        response: { 200: profileSavedSchema },
      },
    },
    async (request) => {
      const user = signedIn(request);
      const input = checked(request, 'body');
      const success = await repo.updateProfile(app.database, user.sub, input);
      // Issue 5: the personal channel tells the user's other tabs and devices to reload the profile:
      // the private channel the web client subscribes to, and the user's signed-in connections
      // (`pusher:signin`, issue 20) for clients that use Pusher's user authentication.
      if (success) {
        await Promise.all([
          app.realtime.publish([`private-user-${user.sub}`], 'profile-updated', { sub: user.sub }),
          app.realtime.sendToUser(user.sub, 'profile-updated', { sub: user.sub }),
        ]).catch((error) => request.log.warn({ err: error }, 'profile-updated not published'));
      }
      return { success };
    },
  );

  app.get(
    '/api/permission/get',
    { schema: { access: 'public', response: { 200: permissionsAnswerSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { rules: rulesFor(request.user) };
    },
  );

  app.get(
    '/api/dev/outbox',
    { schema: { access: 'staff', response: { 200: z.array(outboxMessageSchema) } } },
    async (request, reply) => {
      // Platform staff only, whatever the address or environment (issue 13: a forged
      // X-Forwarded-For read reset codes). Codes are masked in what is stored and listed; in
      // development the links are printed on the server console instead (identity plugin).
      signedIn(request);
      if (!request.ability.can('read', 'Outbox')) throw errors.forbidden();
      reply.header('cache-control', 'no-store');
      return outbox.list();
    },
  );
}
