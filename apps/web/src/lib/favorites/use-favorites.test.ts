import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { favoritesStorageKey, readFavorites, useFavorites } from './use-favorites.ts';

describe('favourites (spec §3, §4)', () => {
  beforeEach(() => localStorage.clear());

  it('toggles a row key in and out of the event set, kept in localStorage, shared by hooks', () => {
    const a = renderHook(() => useFavorites('ev1'));
    const b = renderHook(() => useFavorites('ev1'));
    act(() => a.result.current.toggle('150'));
    expect([...b.result.current.favorites]).toEqual(['150']);
    expect(localStorage.getItem(favoritesStorageKey('ev1'))).toBe('["150"]');
    expect(readFavorites('ev2').size).toBe(0);
    act(() => b.result.current.toggle('150'));
    expect(a.result.current.favorites.size).toBe(0);
  });

  it('survives unreadable storage', () => {
    localStorage.setItem(favoritesStorageKey('ev1'), '{oops');
    expect(readFavorites('ev1').size).toBe(0);
  });
});
