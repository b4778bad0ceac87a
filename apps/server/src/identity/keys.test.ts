import { generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import type { Database } from '../db/database.ts';
import type { TokenSigner } from './keys.ts';

/**
 * Our ID tokens are checked with node:crypto first (issue 38), jose deciding every token that
 * check does not accept: each forgery below must be refused, each good token accepted.
 */
describe('ID token verification', () => {
  let signer: TokenSigner;
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const app = await buildTestApp();
    signer = app.identity.signer;
    db = app.database;
    close = () => app.close();
  });
  afterAll(() => close());

  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

  it('accepts our tokens and refuses forgeries, expired ones and other audiences', async () => {
    const token = await signer.sign({ sub: '00000000-0000-4000-8000-000000000001', email: 'a@example.test' });
    expect((await signer.verify(token)).sub).toBe('00000000-0000-4000-8000-000000000001');
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    const forged = [
      // Another subject under the same signature.
      `${h}.${b64({ ...claims, sub: '00000000-0000-4000-8000-000000000002' })}.${s}`,
      // No signature, alg none.
      `${b64({ ...header, alg: 'none' })}.${p}.`,
      // A signature cut short, a kid we do not have, a critical header.
      `${h}.${p}.${s.slice(0, 40)}`,
      `${b64({ ...header, kid: 'other' })}.${p}.${s}`,
      `${b64({ ...header, crit: ['b64'], b64: false })}.${p}.${s}`,
    ];
    for (const t of forged) await expect(signer.verify(t), t).rejects.toThrow();
    // Signed right by a key of the same kid that is not ours.
    const { privateKey } = await generateKeyPair('ES256');
    const sign = (payload: Record<string, unknown>, key = privateKey) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: header.kid, typ: 'JWT' }).sign(key);
    await expect(signer.verify(await sign(claims))).rejects.toThrow();
  });

  it('checks issuer, audience, expiry and not-before, with 30 s of clock tolerance', async () => {
    const [key] = await db.query<{ kid: string; private_jwk: JWK }>(
      'SELECT kid, private_jwk FROM signing_keys ORDER BY generation DESC LIMIT 1',
    );
    const ours = await importJWK(key!.private_jwk, 'ES256');
    const now = Math.floor(Date.now() / 1000);
    const base = {
      iss: signer.issuer,
      aud: 'tempora',
      sub: '00000000-0000-4000-8000-000000000003',
      exp: now + 60,
    };
    const sign = (payload: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: key!.kid, typ: 'JWT' }).sign(ours);
    const accepted = [
      base,
      { ...base, exp: now - 10 },
      { ...base, aud: ['x', 'tempora'] },
      { ...base, nbf: now + 10 },
    ];
    for (const claims of accepted) expect((await signer.verify(await sign(claims))).sub).toBe(base.sub);
    const { exp: _exp, ...noExp } = base;
    const refused = [
      { ...base, exp: now - 31 },
      { ...base, nbf: now + 60 },
      { ...base, aud: 'other' },
      { ...base, iss: 'https://elsewhere.example' },
      noExp,
      { ...base, sub: 42 },
      { ...base, exp: String(now + 60) },
    ];
    for (const claims of refused)
      await expect(signer.verify(await sign(claims)), JSON.stringify(claims)).rejects.toThrow();
  });
});
