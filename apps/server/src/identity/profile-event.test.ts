import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { createTestUser } from '../../test/identity-helpers.ts';

describe('profile changes on the personal channel (issue 5)', () => {
  it('publishes profile-updated on private-user-{sub} after a successful update only', async () => {
    const app = await buildTestApp();
    try {
      const user = await createTestUser(app, { profileComplete: false });
      const seen: { channels: string[]; event: string }[] = [];
      const original = app.realtime.publish.bind(app.realtime);
      Object.assign(app.realtime, {
        publish: async (channels: string[], event: string, data: unknown) => {
          seen.push({ channels, event });
          return original(channels, event, data);
        },
      });
      const bad = await app.inject({
        method: 'POST',
        url: '/api/user/profile',
        headers: { authorization: user.authorization },
        payload: { firstName: '' },
      });
      expect(bad.statusCode).toBe(400);
      expect(seen).toEqual([]);
      const ok = await app.inject({
        method: 'POST',
        url: '/api/user/profile',
        headers: { authorization: user.authorization },
        payload: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          gender: 'F',
          birthDate: '1990-12-10',
          nationality: 'GBR',
          club: '',
        },
      });
      expect(ok.json()).toEqual({ success: true });
      expect(seen).toEqual([{ channels: [`private-user-${user.sub}`], event: 'profile-updated' }]);
    } finally {
      await app.close();
    }
  });
});
