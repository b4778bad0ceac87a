import type { FastifyInstance } from 'fastify';
import { DEMO_DB } from '../../src/seed/demo-races.ts';

const GUN = Date.UTC(2026, 10, 29, 8);
const MIN = 60_000;

/**
 * A triathlon (`tri`: swim, T1, bike, T2, run; one athlete still on the bike) and a relay
 * (`relay`: two legs, the second with a mass start) in the demo's 10 km context, set up through
 * the API as an organiser would, for the tests that need every race format.
 */
export async function seedFormats(app: FastifyInstance, authorization: string): Promise<void> {
  const send = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const res = await app.inject({ method, url, headers: { authorization }, payload: payload as object });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  };
  const race = async (id: string, points: [string, number][], bibs: string[]) => {
    await send('POST', `/api/results/contexts/${DEMO_DB}/races`, {
      id,
      name: id,
      date: '2026-11-29',
      distanceM: points.at(-1)![1],
      startType: 'mass',
      gunTimeMs: GUN,
      categories: [],
      points: points.map(([key, distanceM]) => ({ key, name: key, distanceM })),
    });
    await send('POST', `/api/results/contexts/${DEMO_DB}/races/${id}/participants`, {
      participants: bibs.map((bib, k) => ({ bib, firstName: 'A', lastName: bib, gender: k % 2 ? 'M' : 'F' })),
    });
  };
  const triPoints: [string, number][] = [
    ['swim', 750],
    ['t1', 760],
    ['bike', 20_760],
    ['t2', 20_770],
    ['run', 25_770],
  ];
  await race('tri', triPoints, ['T-1', 'T-2', 'T-3']);
  const kinds = ['discipline', 'transition', 'discipline', 'transition', 'discipline'];
  await send('PUT', '/api/console/races/tri/format', {
    kind: 'multisport',
    legs: triPoints.map(([key], k) => ({ pointKey: key, kind: kinds[k], name: { en: key, fr: key } })),
  });
  await race(
    'relay',
    [
      ['x1', 5000],
      ['relay-finish', 10_000],
    ],
    ['R-1', 'R-2'],
  );
  await send('PUT', '/api/console/races/relay/format', {
    kind: 'relay',
    legs: [
      { pointKey: 'x1', name: { en: 'Leg 1', fr: 'Relais 1' } },
      { pointKey: 'relay-finish', name: { en: 'Leg 2', fr: 'Relais 2' }, massStartMinutes: 30 },
    ],
  });
  const reads: [string, string, number][] = [
    ['T-1', 'swim', 12],
    ['T-1', 't1', 13.5],
    ['T-1', 'bike', 50],
    ['T-1', 't2', 51],
    ['T-1', 'run', 72],
    ['T-2', 'swim', 11],
    ['T-2', 't1', 13],
    ['R-1', 'x1', 20],
    ['R-1', 'relay-finish', 41],
    ['R-2', 'x1', 25],
  ];
  await send('POST', `/api/results/contexts/${DEMO_DB}/passings`, {
    passings: reads.map(([bib, point, minutes]) => ({
      id: `${bib}-${point}`,
      bib,
      point,
      time: GUN + minutes * MIN,
    })),
  });
}
