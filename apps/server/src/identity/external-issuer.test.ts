import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';

/** A test-made OIDC issuer: an RS256 key and a tiny HTTP server publishing its JWKS. */
async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-1', alg: 'RS256', use: 'sig' };
  const server = http.createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    sign: (
      claims: Record<string, unknown>,
      sub: string,
      exp: string | null = '10m',
      audience = 'tempora-test',
      notBefore?: string,
    ) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-1' })
        .setIssuer(issuer)
        .setSubject(sub)
        .setAudience(audience)
        .setIssuedAt();
      if (notBefore) jwt.setNotBefore(notBefore);
      return (exp === null ? jwt : jwt.setExpirationTime(exp)).sign(privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let app: FastifyInstance;
let trusted: Awaited<ReturnType<typeof startIssuer>>;
let untrusted: Awaited<ReturnType<typeof startIssuer>>;

beforeAll(async () => {
  trusted = await startIssuer();
  untrusted = await startIssuer();
  app = await buildTestApp({
    OIDC_TRUSTED_ISSUERS: `${trusted.issuer}/|tempora-test`,
    PLATFORM_STAFF_EMAILS: 'boss@idp.example',
  });
});
afterAll(async () => {
  await app.close();
  await trusted.close();
  await untrusted.close();
});

const me = (token: string) =>
  app.inject({ url: '/api/user/get', headers: { authorization: `Bearer ${token}` } });

describe('trusted external OIDC issuer', () => {
  it('accepts its tokens, creating the user once under issuer|sub', async () => {
    const token = await trusted.sign({ email: 'Ext@IdP.example', email_verified: true }, 'ext-42');
    const first = await me(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ email: 'ext@idp.example', profileComplete: false });
    const second = await me(await trusted.sign({ email: 'ext@idp.example', email_verified: true }, 'ext-42'));
    expect(second.json().sub).toBe(first.json().sub);
    const rows = await app.database.query<{ external_key: string }>(
      'SELECT external_key FROM users WHERE external_key IS NOT NULL',
    );
    expect(rows).toEqual([{ external_key: `${trusted.issuer}|ext-42` }]);
  });

  it('grants staff by e-mail only when the issuer verified the address', async () => {
    const rulesOf = async (token: string) =>
      (await app.inject({ url: '/api/permission/get', headers: { authorization: `Bearer ${token}` } })).json()
        .rules;
    const verified = await rulesOf(
      await trusted.sign({ email: 'boss@idp.example', email_verified: true }, 'b1'),
    );
    expect(verified).toContainEqual({ action: 'manage', subject: 'all' });
    const unverified = await rulesOf(await trusted.sign({ email: 'boss@idp.example' }, 'b2'));
    expect(unverified).not.toContainEqual({ action: 'manage', subject: 'all' });
  });

  it('refuses its expired tokens and tokens of an untrusted issuer', async () => {
    const expired = await trusted.sign({ email: 'x@idp.example' }, 'ext-1', '-5m');
    const foreign = await untrusted.sign({ email: 'x@idp.example' }, 'ext-1');
    for (const token of [expired, foreign]) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TOKEN_INVALID');
    }
  });

  it('refuses its tokens minted for another audience, without exp, or not valid yet (issue 13)', async () => {
    const claims = { email: 'boss@idp.example', email_verified: true };
    const otherApp = await trusted.sign(claims, 'b1', '10m', 'another-application');
    const forever = await trusted.sign(claims, 'b1', null);
    const notYet = await trusted.sign(claims, 'b1', '20m', 'tempora-test', '10m');
    for (const token of [otherApp, forever, notYet]) {
      const res = await me(token);
      expect([res.statusCode, res.json().code]).toEqual([401, 'TOKEN_INVALID']);
    }
  });

  it('keeps an unverified e-mail from granting roles even after a verified token of the same user', async () => {
    const rulesOf = async (token: string) =>
      (await app.inject({ url: '/api/permission/get', headers: { authorization: `Bearer ${token}` } })).json()
        .rules;
    await rulesOf(await trusted.sign({ email: 'boss@idp.example', email_verified: true }, 'flip'));
    const later = await rulesOf(
      await trusted.sign({ email: 'boss@idp.example', email_verified: false }, 'flip'),
    );
    expect(later).not.toContainEqual({ action: 'manage', subject: 'all' });
  });

  it('refuses a token signed by another key that claims the trusted issuer', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ email: 'x@idp.example' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-1' })
      .setIssuer(trusted.issuer)
      .setSubject('ext-42')
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await me(forged)).statusCode).toBe(401);
  });
});
