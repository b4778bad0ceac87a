import { permissionsSchema, tokenResponseSchema, userProfileSchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { captureMails } from '../../test/identity-helpers.ts';

let app: FastifyInstance;
let mails: ReturnType<typeof captureMails>;
beforeAll(async () => {
  app = await buildTestApp({ AUTH_RATE_LIMIT: '1000', PUBLIC_URL: 'https://tempora.example' });
  mails = captureMails(app);
});
afterAll(() => app.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers });

/** The code of the newest mail sent to `to` (read from its link). */
async function lastCode(to: string): Promise<{ code: string; mode: string; text: string; subject: string }> {
  const mail = mails.sent.findLast((m) => m.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  const link = /https:\/\/tempora\.example\/#\/auth\/action\?mode=(\w+)&oobCode=([\w-]+)/.exec(mail.text);
  if (!link) throw new Error('no link');
  return {
    mode: link[1] as string,
    code: decodeURIComponent(link[2] as string),
    text: mail.text,
    subject: mail.subject,
  };
}

describe('identity journey', () => {
  it('sign-up → verify → sign-in → user/get → profile → permission/get', async () => {
    const email = 'Runner@Example.org';
    const signUp = await post('/api/auth/sign-up', { email, password: 'correct horse', lng: 'en' });
    expect(signUp.statusCode).toBe(201);
    const { sub } = signUp.json();

    // Not verified yet: the right password says so; a wrong one does not.
    const early = await post('/api/auth/sign-in', { email, password: 'correct horse' });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('EMAIL_NOT_VERIFIED');

    const mail = await lastCode('runner@example.org');
    expect(mail.mode).toBe('verifyEmail');
    expect(mail.subject).toContain('Confirm');
    expect((await post('/api/auth/verify-email', { code: mail.code })).json()).toEqual({ verified: true });

    const signIn = await post('/api/auth/sign-in', { email, password: 'correct horse' });
    expect(signIn.statusCode).toBe(200);
    const tokens = tokenResponseSchema.parse(signIn.json());
    const authorization = `Bearer ${tokens.idToken}`;

    const me = await app.inject({ url: '/api/user/get', headers: { authorization } });
    expect(me.statusCode).toBe(200);
    const profile = userProfileSchema.parse(me.json());
    expect(profile).toMatchObject({ sub, email: 'runner@example.org', profileComplete: false, lng: 'en' });

    const update = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      gender: 'F',
      birthDate: '1990-12-10',
      nationality: 'GBR',
      club: 'AC Analytical',
    };
    const saved = await post('/api/user/profile', update, { authorization });
    expect(saved.json()).toEqual({ success: true });
    const after = (await app.inject({ url: '/api/user/get', headers: { authorization } })).json();
    expect(after).toMatchObject({ ...update, profileComplete: true });

    const perms = await app.inject({ url: '/api/permission/get', headers: { authorization } });
    const { rules } = permissionsSchema.parse(perms.json());
    expect(rules).toContainEqual({ action: ['read', 'update'], subject: 'Profile', conditions: { sub } });
  });

  it('serves the JWKS the ID tokens are signed with', async () => {
    const res = await app.inject({ url: '/.well-known/jwks.json' });
    const { keys } = res.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(keys[0].d).toBeUndefined();
  });

  it('stays anonymous without a token and refuses bad ones with 401 TOKEN_INVALID', async () => {
    const anon = await app.inject({ url: '/api/permission/get' });
    expect(anon.statusCode).toBe(200);
    expect((await app.inject({ url: '/api/user/get' })).statusCode).toBe(401);
    for (const token of [
      'nonsense',
      'a.b.c',
      `${'eyJhbGciOiJub25lIn0'}.${btoa('{"sub":"x","iss":"tempora"}')}.`,
    ]) {
      const res = await app.inject({
        url: '/api/permission/get',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TOKEN_INVALID');
    }
  });
});
