import { abilityFromRules, rulesFor } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import '../plugins/auth-context.ts';
import { rateLimitPlugin } from '../plugins/rate-limit.ts';
import { createAuthenticator, tokenInvalid } from './authenticate.ts';
import { loadSigningKeys, type TokenSigner } from './keys.ts';
import { createOutbox, type Outbox } from './outbox.ts';
import { identityRoutes } from './routes.ts';
import { createIdentityService, type IdentityService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The e-mail outbox: `app.outbox.send({ to, subject, text, html })` (identity plugin). */
    outbox: Outbox;
    /** The built-in identity provider: token signer and commands. */
    identity: { signer: TokenSigner; service: IdentityService };
  }
}

const anonymousRules = rulesFor(null);

/**
 * The built-in identity provider and the request's caller (issue 4). Every request gets
 * `request.user` (null when anonymous) and `request.ability` from the bearer ID token; a bad
 * token answers 401 TOKEN_INVALID, a missing one leaves the request anonymous.
 */
export const identityPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, database } = app;
    const signer = await loadSigningKeys(database, config.PUBLIC_URL?.replace(/\/+$/, '') ?? 'tempora');
    const outbox = createOutbox(database, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log });
    app.addHook('onClose', () => outbox.flush());
    if (config.NODE_ENV === 'development') {
      // A newcomer on the embedded default has no mail server: the verification and reset links
      // are printed here (README "First account"), never served over HTTP.
      outbox.observe((mail) => {
        if (mail.link)
          app.log.info({ to: mail.to, subject: mail.subject, link: mail.link }, `e-mail link: ${mail.link}`);
      });
    }
    const service = createIdentityService({ database, signer, outbox, publicUrl: config.publicUrl });
    const authenticator = createAuthenticator({
      database,
      signer,
      trustedIssuers: config.OIDC_TRUSTED_ISSUERS,
      platformStaffEmails: config.PLATFORM_STAFF_EMAILS,
      confirmationAccountEmail: config.CONFIRMATION_ACCOUNT_EMAIL,
    });
    app.decorate('outbox', outbox);
    app.decorate('identity', { signer, service });

    app.decorateRequest('user', null);
    app.decorateRequest('ability', null as never);
    app.addHook('onRequest', async (request) => {
      request.user = null;
      request.ability = abilityFromRules(anonymousRules);
      const header = request.headers.authorization;
      // The auth endpoints never need the caller: an expired token must not block its own refresh.
      // `/metrics` reads its own bearer token (METRICS_TOKEN, not an ID token: issue 41).
      if (!header || request.url.startsWith('/api/auth/') || request.routeOptions.url === '/metrics') return;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) {
        if (/^Bearer\b/i.test(header)) throw tokenInvalid();
        return; // another scheme (e.g. Basic) is not ours to judge
      }
      const user = await authenticator.authenticate(match[1] as string);
      request.user = user;
      request.ability = abilityFromRules(rulesFor(user));
    });

    await app.register(rateLimitPlugin);
    await app.register(identityRoutes, { service, signer, outbox });
  },
  { name: 'identity', dependencies: ['errors'] },
);
