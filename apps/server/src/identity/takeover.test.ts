import type { FastifyInstance } from 'fastify';
import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { captureMails, createTestUser } from '../../test/identity-helpers.ts';
import { MASK } from './outbox.ts';

// Issue 13, critical: the account-takeover chain forgot-password → read the code from
// `dev/outbox` (a forged X-Forwarded-For made the caller "loopback") → reset any account.

let app: FastifyInstance;
let mails: ReturnType<typeof captureMails>;
beforeAll(async () => {
  // Development, where the outbox used to be open to loopback callers.
  app = await buildTestApp({ NODE_ENV: 'development', SEED_DEMO: 'false', AUTH_RATE_LIMIT: '1000' });
  app.get('/test/ip', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  mails = captureMails(app);
});
afterAll(() => app.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers });

async function verifiedAccount(email: string, password = 'first password') {
  expect((await post('/api/auth/sign-up', { email, password, lng: 'en' })).statusCode).toBe(201);
  expect((await post('/api/auth/verify-email', { code: mails.lastCode(email) })).statusCode).toBe(200);
}

describe('dev/outbox', () => {
  it('is refused to anonymous callers, forged loopback included', async () => {
    for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }]) {
      const res = await app.inject({ url: '/api/dev/outbox', headers, remoteAddress: '127.0.0.1' });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('is refused to a signed-in user who is not platform staff, organisers included', async () => {
    const [org] = await app.database.query<{ id: string }>(
      `INSERT INTO organisations (slug, name) VALUES ('outbox-org', 'O') RETURNING id`,
    );
    const owner = await createTestUser(app, {
      memberships: [{ organisationId: org?.id as string, role: 'owner' }],
    });
    const user = await createTestUser(app);
    for (const who of [user, owner]) {
      const res = await app.inject({
        url: '/api/dev/outbox',
        headers: { authorization: who.authorization },
        remoteAddress: '127.0.0.1',
      });
      expect(res.statusCode).toBe(403);
    }
  });

  it('shows platform staff the mails with every code masked', async () => {
    const email = 'victim@example.org';
    await verifiedAccount(email);
    await post('/api/auth/forgot-password', { email, lng: 'en' });
    const code = mails.lastCode(email, 'resetPassword');
    const staff = await createTestUser(app, { staff: true });
    const res = await app.inject({ url: '/api/dev/outbox', headers: { authorization: staff.authorization } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const listed = (res.json() as { to: string; text: string; html: string }[]).filter((m) => m.to === email);
    expect(listed).toHaveLength(2);
    for (const mail of listed) {
      expect(mail.text).toContain(`oobCode=${MASK}`);
      expect(mail.html).toContain(`oobCode=${MASK}`);
      expect(`${mail.text}${mail.html}`).not.toContain(code);
    }
    // Not in the table either: a database reader cannot take the account over.
    const rows = await app.database.query<{ text_body: string; html_body: string }>(
      'SELECT text_body, html_body FROM outbox WHERE recipient = $1',
      [email],
    );
    for (const row of rows) expect(`${row.text_body}${row.html_body}`).not.toContain(code);
  });
});

describe('links in mails', () => {
  it('come from the configured address, never from Host or X-Forwarded-Host', async () => {
    const email = 'links@example.org';
    await post(
      '/api/auth/sign-up',
      { email, password: 'a long password', lng: 'en' },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    );
    // No PUBLIC_URL in this app: the listen address, a wildcard HOST shown as localhost.
    expect(mails.sent.findLast((m) => m.to === email)?.link).toMatch(
      /^http:\/\/localhost:8080\/#\/auth\/action\?mode=verifyEmail&oobCode=/,
    );
    const withPublic = await buildTestApp({ SEED_DEMO: 'false', PUBLIC_URL: 'https://race.example/' });
    try {
      const sent = captureMails(withPublic);
      await withPublic.inject({
        method: 'POST',
        url: '/api/auth/sign-up',
        payload: { email, password: 'a long password', lng: 'en' },
        headers: { 'x-forwarded-host': 'evil.example' },
      });
      expect(sent.sent[0]?.link).toMatch(/^https:\/\/race\.example\/#\/auth\/action\?mode=verifyEmail/);
      expect(sent.sent[0]?.text).not.toContain('evil.example');
    } finally {
      await withPublic.close();
    }
  });
});

describe('reset codes', () => {
  it('issuing a code invalidates the earlier ones', async () => {
    const email = 'twice@example.org';
    await verifiedAccount(email);
    await post('/api/auth/forgot-password', { email, lng: 'en' });
    const older = mails.lastCode(email, 'resetPassword');
    await post('/api/auth/forgot-password', { email, lng: 'en' });
    const newer = mails.lastCode(email, 'resetPassword');
    expect(newer).not.toBe(older);
    const old = await post('/api/auth/reset-password', { code: older, password: 'second password' });
    expect([old.statusCode, old.json().code]).toEqual([400, 'CODE_INVALID']);
    const ok = await post('/api/auth/reset-password', { code: newer, password: 'second password' });
    expect(ok.json()).toEqual({ reset: true });
  });
});

describe('TRUST_PROXY', () => {
  it('unset: X-Forwarded-For and X-Forwarded-Proto change nothing', async () => {
    const res = await app.inject({
      url: '/test/ip',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' },
    });
    expect(res.json()).toEqual({ ip: '203.0.113.9', protocol: 'http' });
  });

  it('set to the proxy address: the forwarded client is believed from that proxy only', async () => {
    const proxied = await buildTestApp({ SEED_DEMO: 'false', TRUST_PROXY: '10.0.0.0/8,192.0.2.1' });
    try {
      proxied.get('/test/ip', async (request) => ({ ip: request.ip, protocol: request.protocol }));
      const from = (remoteAddress: string) =>
        proxied.inject({
          url: '/test/ip',
          remoteAddress,
          headers: { 'x-forwarded-for': '198.51.100.4', 'x-forwarded-proto': 'https' },
        });
      expect((await from('10.2.3.4')).json()).toEqual({ ip: '198.51.100.4', protocol: 'https' });
      expect((await from('192.0.2.1')).json().ip).toBe('198.51.100.4');
      expect((await from('203.0.113.9')).json()).toEqual({ ip: '203.0.113.9', protocol: 'http' });
    } finally {
      await proxied.close();
    }
  });
});

describe('our own ID tokens', () => {
  it('carry an audience, and a token of our key without it is refused', async () => {
    const user = await createTestUser(app);
    const [, payload] = user.idToken.split('.') as [string, string];
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString()).aud).toBe('tempora');
    const [row] = await app.database.query<{ private_jwk: JWK; kid: string }>('SELECT * FROM signing_keys');
    const key = await importJWK(row?.private_jwk as JWK, 'ES256');
    const noAudience = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: 'ES256', kid: row?.kid })
      .setIssuer(app.identity.signer.issuer)
      .setSubject(user.sub)
      .setExpirationTime('5m')
      .sign(key);
    const res = await app.inject({
      url: '/api/user/get',
      headers: { authorization: `Bearer ${noAudience}` },
    });
    expect([res.statusCode, res.json().code]).toEqual([401, 'TOKEN_INVALID']);
  });
});
