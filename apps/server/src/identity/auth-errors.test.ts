import type { FastifyInstance } from 'fastify';
import { importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { captureMails, createTestUser } from '../../test/identity-helpers.ts';

let app: FastifyInstance;
let mails: ReturnType<typeof captureMails>;
beforeAll(async () => {
  app = await buildTestApp({ AUTH_RATE_LIMIT: '5' });
  mails = captureMails(app);
});
afterAll(() => app.close());

let ip = 0;
/** Each call from its own address unless told, so the rate limit only bites where tested. */
const post = (url: string, payload: object, remoteAddress = `10.0.0.${++ip % 250}`) =>
  app.inject({ method: 'POST', url, payload, remoteAddress });

const lastCode = async (to: string) => mails.lastCode(to);

/** A verified account with a password. */
async function account(email: string, password = 'first password') {
  expect((await post('/api/auth/sign-up', { email, password, lng: 'fr' })).statusCode).toBe(201);
  await post('/api/auth/verify-email', { code: await lastCode(email) });
  return { email, password };
}

const problem = (res: { statusCode: number; json(): { code: string } }) => [res.statusCode, res.json().code];

describe('sign-up and sign-in errors', () => {
  it('answers wrong password and unknown user identically', async () => {
    const { email } = await account('same@example.org');
    const wrong = await post('/api/auth/sign-in', { email, password: 'not the password' });
    const unknown = await post('/api/auth/sign-in', {
      email: 'nobody@example.org',
      password: 'not the password',
    });
    expect(problem(wrong)).toEqual([401, 'INVALID_CREDENTIALS']);
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses a duplicate e-mail (any case) with 409 EMAIL_IN_USE', async () => {
    await account('dup@example.org');
    const again = await post('/api/auth/sign-up', {
      email: 'DUP@example.org',
      password: 'whatever123',
      lng: 'en',
    });
    expect(problem(again)).toEqual([409, 'EMAIL_IN_USE']);
  });

  it('leads the verification link back to an invitation, never elsewhere (issue 43)', async () => {
    const next = '/console/invitations/AbCdEfGh12345678';
    const res = await post('/api/auth/sign-up', {
      email: 'invitee@example.org',
      password: 'a password 12',
      lng: 'en',
      next,
    });
    expect(res.statusCode).toBe(201);
    expect(mails.sent.findLast((m) => m.to === 'invitee@example.org')?.link).toContain(
      `&next=${encodeURIComponent(next)}`,
    );
    const elsewhere = await post('/api/auth/sign-up', {
      email: 'other@example.org',
      password: 'a password 12',
      lng: 'en',
      next: 'https://evil.example/',
    });
    expect(problem(elsewhere)).toEqual([400, 'VALIDATION_FAILED']);
    expect(mails.sent.some((m) => m.to === 'other@example.org')).toBe(false);
  });

  it('rejects bad input with field errors', async () => {
    const res = await post('/api/auth/sign-up', { email: 'not-an-email', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'password']);
  });

  it('rate limits sign-in per address and e-mail with 429 and Retry-After', async () => {
    const from = '192.0.2.7';
    const attempt = () =>
      post('/api/auth/sign-in', { email: 'target@example.org', password: 'guess1234' }, from);
    for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(problem(limited)).toEqual([429, 'RATE_LIMITED']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address, for another account, is not affected (the same account is: rate-limit.test.ts).
    expect(
      (await post('/api/auth/sign-in', { email: 'bystander@example.org', password: 'guess1234' })).statusCode,
    ).toBe(401);
  });

  it('forgot-password answers 202 whether or not the account exists', async () => {
    expect(
      (await post('/api/auth/forgot-password', { email: 'ghost@example.org', lng: 'fr' })).statusCode,
    ).toBe(202);
    expect((await app.outbox.list(500)).some((m) => m.to === 'ghost@example.org')).toBe(false);
  });
});

describe('one-time codes', () => {
  it('reset code works once; the old password and sessions stop working', async () => {
    const { email, password } = await account('reset@example.org');
    const session = (await post('/api/auth/sign-in', { email, password })).json();
    await post('/api/auth/forgot-password', { email, lng: 'fr' });
    const [mail] = (await app.outbox.list(500)).filter((m) => m.to === email);
    expect(mail?.text).toContain('mode=resetPassword');
    expect(mail?.subject).toContain('mot de passe');
    const code = await lastCode(email);
    expect((await post('/api/auth/reset-password', { code, password: 'second password' })).json()).toEqual({
      reset: true,
    });
    expect(problem(await post('/api/auth/reset-password', { code, password: 'third password' }))).toEqual([
      400,
      'CODE_INVALID',
    ]);
    expect((await post('/api/auth/sign-in', { email, password })).statusCode).toBe(401);
    expect((await post('/api/auth/sign-in', { email, password: 'second password' })).statusCode).toBe(200);
    expect(problem(await post('/api/auth/refresh', { refreshToken: session.refreshToken }))).toEqual([
      401,
      'REFRESH_INVALID',
    ]);
  });

  it('an expired code is refused with CODE_EXPIRED, an unknown one with CODE_INVALID', async () => {
    const { email } = await account('expired@example.org');
    await post('/api/auth/forgot-password', { email, lng: 'en' });
    const code = await lastCode(email);
    await app.database.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second'`);
    expect(problem(await post('/api/auth/reset-password', { code, password: 'new password' }))).toEqual([
      400,
      'CODE_EXPIRED',
    ]);
    expect(problem(await post('/api/auth/verify-email', { code: 'x'.repeat(43) }))).toEqual([
      400,
      'CODE_INVALID',
    ]);
  });
});

describe('refresh tokens', () => {
  it('rotate; reusing a rotated token revokes the whole family', async () => {
    const { email, password } = await account('rotate@example.org');
    const first = (await post('/api/auth/sign-in', { email, password })).json();
    const second = await post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(second.statusCode).toBe(200);
    const next = second.json();
    expect(next.refreshToken).not.toBe(first.refreshToken);
    // The stolen old token comes back: refused, and the legitimate newer one dies with it.
    expect(problem(await post('/api/auth/refresh', { refreshToken: first.refreshToken }))).toEqual([
      401,
      'REFRESH_INVALID',
    ]);
    expect((await post('/api/auth/refresh', { refreshToken: next.refreshToken })).statusCode).toBe(401);
  });

  it('sign-out revokes the session', async () => {
    const { email, password } = await account('signout@example.org');
    const tokens = (await post('/api/auth/sign-in', { email, password })).json();
    expect((await post('/api/auth/sign-out', { refreshToken: tokens.refreshToken })).statusCode).toBe(204);
    expect((await post('/api/auth/refresh', { refreshToken: tokens.refreshToken })).statusCode).toBe(401);
  });
});

describe('ID tokens', () => {
  const get = (authorization: string) => app.inject({ url: '/api/user/get', headers: { authorization } });

  it('refuses tampered, expired and alg:none tokens with 401 TOKEN_INVALID', async () => {
    const user = await createTestUser(app);
    expect((await get(user.authorization)).statusCode).toBe(200);
    const [header, payload, signature] = user.idToken.split('.') as [string, string, string];
    const other = await createTestUser(app);
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
    forged.sub = other.sub;
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const [row] = await app.database.query<{ private_jwk: JWK; kid: string }>('SELECT * FROM signing_keys');
    const key = await importJWK(row?.private_jwk as JWK, 'ES256');
    const expired = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: 'ES256', kid: row?.kid })
      .setIssuer('tempora')
      .setSubject(user.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      .sign(key);
    for (const token of [tampered, none, expired]) {
      expect(problem(await get(`Bearer ${token}`))).toEqual([401, 'TOKEN_INVALID']);
    }
  });

  it('the auth endpoints ignore a stale bearer token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: 'unknown-refresh-token' },
      headers: { authorization: 'Bearer expired.token.here' },
    });
    expect(problem(res)).toEqual([401, 'REFRESH_INVALID']);
  });
});

describe('user/profile', () => {
  it('invalid fields → 400 with field errors and nothing changed', async () => {
    const user = await createTestUser(app, { profileComplete: true });
    const before = (
      await app.inject({ url: '/api/user/get', headers: { authorization: user.authorization } })
    ).json();
    const res = await app.inject({
      method: 'POST',
      url: '/api/user/profile',
      headers: { authorization: user.authorization },
      payload: { firstName: 'Grace', lastName: '', gender: 'Q', birthDate: '2030-02-31', nationality: 'fr' },
    });
    expect(problem(res)).toEqual([400, 'VALIDATION_FAILED']);
    const fields = res.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['lastName', 'gender', 'birthDate', 'nationality']));
    const after = (
      await app.inject({ url: '/api/user/get', headers: { authorization: user.authorization } })
    ).json();
    expect(after).toEqual(before);
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/user/profile', payload: {} });
    expect(problem(res)).toEqual([401, 'UNAUTHORIZED']);
  });
});
