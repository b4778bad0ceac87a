import { afterAll, describe, expect, it } from 'vitest';
import { backends, testConfig } from '../../test/helpers.ts';
import { captureMails } from '../../test/identity-helpers.ts';
import { buildApp } from '../app.ts';

// On PGlite and, when TEST_DATABASE_URL is set, PostgreSQL: several nodes (or a restart) share
// the signing keys, so a token from one node is accepted by another.
describe.each(backends().map((b) => [b.name, b] as const))(
  'identity across nodes on %s',
  (_name, backend) => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('two nodes starting at once create one key and accept each other’s tokens', async () => {
      const fresh = await backend.fresh();
      cleanups.push(fresh.drop);
      const node = async () => {
        const database = await fresh.open();
        const app = await buildApp(testConfig({ SEED_DEMO: 'false' }), { database, logger: false });
        cleanups.push(async () => {
          await app.close();
          await database.close();
        });
        return app;
      };
      // PGlite allows one open handle per directory: there the two nodes share one.
      const [a, b] =
        backend.name === 'postgres'
          ? await Promise.all([node(), node()])
          : await (async () => {
              const database = await fresh.open();
              const build = () => buildApp(testConfig({ SEED_DEMO: 'false' }), { database, logger: false });
              const apps = await Promise.all([build(), build()]);
              cleanups.push(async () => {
                for (const app of apps) await app.close();
                await database.close();
              });
              return apps;
            })();
      if (!a || !b) throw new Error('nodes not built');
      expect((await a.inject({ url: '/.well-known/jwks.json' })).json()).toEqual(
        (await b.inject({ url: '/.well-known/jwks.json' })).json(),
      );

      const email = 'nodes@example.org';
      const password = 'a long password';
      const post = (app: typeof a, url: string, payload: object) =>
        app.inject({ method: 'POST', url, payload });
      const mails = captureMails(a);
      expect((await post(a, '/api/auth/sign-up', { email, password, lng: 'en' })).statusCode).toBe(201);
      // Node b sees the mail node a stored (codes masked in the stored copy).
      const [stored] = await b.outbox.list(1);
      expect(stored?.to).toBe(email);
      const code = mails.lastCode(email);
      expect((await post(b, '/api/auth/verify-email', { code })).statusCode).toBe(200);
      const tokens = (await post(a, '/api/auth/sign-in', { email, password })).json();
      const me = await b.inject({
        url: '/api/user/get',
        headers: { authorization: `Bearer ${tokens.idToken}` },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().email).toBe(email);
      const refreshed = await post(b, '/api/auth/refresh', { refreshToken: tokens.refreshToken });
      expect(refreshed.statusCode).toBe(200);
      expect((await post(a, '/api/auth/refresh', { refreshToken: tokens.refreshToken })).statusCode).toBe(
        401,
      );
    }, 120_000); // two app builds and Argon2 hashes: CPU-bound, slow on a shared CI machine
  },
);
