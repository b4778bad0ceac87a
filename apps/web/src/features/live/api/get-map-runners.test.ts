import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../../lib/api-client.ts';
import { followedCardQuery, mapAthleteQuery, mapLeadersQuery } from './get-map-runners.ts';

vi.mock('../../../lib/api-client.ts', () => ({ apiGet: vi.fn() }));
const get = vi.mocked(apiGet);
const card = { athlete: { bib: '7' } };

describe('the map runners (issue 27)', () => {
  beforeEach(() => get.mockReset());

  it('keeps the keys the live refetch invalidates by prefix', () => {
    expect(followedCardQuery('ctx', '7', undefined).queryKey).toEqual(['map-followed', 'ctx', '7', null]);
    expect(mapAthleteQuery('ctx', '7').queryKey).toEqual(['map-athlete', 'ctx', '7']);
    expect(mapLeadersQuery('ctx', 'm').queryKey).toEqual(['map-leaders', 'ctx', 'm']);
    expect(mapLeadersQuery(undefined, undefined).enabled).toBe(false);
  });

  it('a followed runner: by the tracking key the card gave, else found by a search in the context', async () => {
    get.mockResolvedValue(card);
    const client = new QueryClient();
    expect(await client.fetchQuery(followedCardQuery('ctx', '7', 'k7'))).toBe(card);
    expect(get.mock.calls.map((c) => c[1])).toEqual(['tracking/k7']);
    get.mockReset();
    get.mockResolvedValueOnce([
      { bib: '17', trackingKey: 'k17' },
      { bib: '7', trackingKey: 'k 7' },
    ]);
    get.mockResolvedValueOnce(card);
    expect(await client.fetchQuery(followedCardQuery('ctx', '7', undefined))).toBe(card);
    expect(get.mock.calls.map((c) => c[1])).toEqual([
      'results/contexts/ctx/participants?q=7',
      'tracking/k%207',
    ]);
  });

  it('a followed runner the search does not find is null, with no card asked', async () => {
    get.mockResolvedValueOnce([{ bib: '77', trackingKey: 'k77' }]);
    expect(await new QueryClient().fetchQuery(followedCardQuery('ctx', '7', undefined))).toBeNull();
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('the leaders of the map are the first ten at every point', async () => {
    get.mockResolvedValue({ points: [] });
    await new QueryClient().fetchQuery(mapLeadersQuery('ctx', 'm'));
    expect(get.mock.calls[0]?.[1]).toBe('results/contexts/ctx/races/m/leaders?count=10');
  });
});
