import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { trackingKeyOfRow } from '../results/components/report-cell.tsx';
import { toggleFavorite, useFavorites } from '../../lib/favorites/use-favorites.ts';
import { keysFromParam, MAX_FOLLOWED, useFollowed } from './followed.ts';

describe('followed athletes: the one follow list (issue 27)', () => {
  beforeEach(() => window.localStorage.clear());

  it('following from a card is the table star, and unstarring in a table unfollows on /genericTracking', () => {
    const followed = renderHook(() => useFollowed());
    const table = renderHook(() => useFavorites('ev1'));
    expect(followed.result.current).toEqual([]);
    act(() => toggleFavorite('ev1', '150', 'key150'));
    act(() => toggleFavorite('ev2', '7', 'key7'));
    expect(table.result.current.favorites.has('150')).toBe(true);
    expect(followed.result.current).toEqual(['key150', 'key7']);
    act(() => table.result.current.toggle('150'));
    expect(followed.result.current).toEqual(['key7']);
  });

  it('shows at most MAX_FOLLOWED cards', () => {
    act(() => {
      for (let k = 0; k < MAX_FOLLOWED + 3; k++) toggleFavorite('ev', `${k}`, `k${k}`);
    });
    const { result } = renderHook(() => useFollowed());
    expect(result.current).toHaveLength(MAX_FOLLOWED);
  });

  it('survives damaged stored values', () => {
    window.localStorage.setItem('favorite-keys:ev', '{not json');
    window.localStorage.setItem('favorites:ev', '{not json');
    const { result } = renderHook(() => useFollowed());
    expect(result.current).toEqual([]);
  });

  it('reads the tracking key from a row link', () => {
    expect(trackingKeyOfRow(['150', 3, 'Ann', '#/events/ev1/tracking/abc123'])).toBe('abc123');
    expect(trackingKeyOfRow(['150', 3, 'Ann'])).toBeUndefined();
  });

  it('reads one key or several from the route parameter, without duplicates', () => {
    expect(keysFromParam('abc')).toEqual(['abc']);
    expect(keysFromParam('abc, def,abc,,')).toEqual(['abc', 'def']);
    expect(keysFromParam(undefined)).toEqual([]);
  });
});
