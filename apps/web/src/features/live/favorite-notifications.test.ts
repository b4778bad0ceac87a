import { describe, expect, it } from 'vitest';
import { favoriteNotification } from './favorite-notifications.tsx';

const t = (key: string, o: Record<string, unknown>) => `${key}:${JSON.stringify(o)}`;
const card = {
  athlete: { firstName: 'Ada', lastName: 'Runner' },
  race: { points: [{ key: '5k', name: '5 km' }] },
  splits: [{ pointKey: '5k', netMs: 1_234_000 }],
} as never;

describe('favourite notifications', () => {
  const passing = { raceId: 'r', bib: '150', pointKey: '5k', timeOfDay: 0 };

  it('names the athlete, the point and the time there, tagged per point', () => {
    expect(favoriteNotification(passing, new Set(['150']), card, t)).toEqual({
      title: 'notify.title:{"name":"Ada Runner","bib":"150"}',
      body: 'notify.bodyTime:{"point":"5 km","time":"20:34"}',
      tag: 'r/150/5k',
    });
  });

  it('stays quiet for runners who are not favourites', () => {
    expect(favoriteNotification(passing, new Set(['151']), card, t)).toBeNull();
  });

  it('falls back to the bib and point key when the athlete cannot be loaded', () => {
    expect(favoriteNotification(passing, new Set(['150']), null, t)).toMatchObject({
      title: 'notify.title:{"name":"#150","bib":"150"}',
      body: 'notify.body:{"point":"5k"}',
    });
  });
});
