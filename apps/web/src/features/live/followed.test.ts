import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { keysFromParam, MAX_FOLLOWED, toggleFollowed, useFollowed } from './followed.ts';

describe('followed athletes', () => {
  beforeEach(() => window.localStorage.clear());

  it('toggles keys, keeps the newest MAX_FOLLOWED and tells every hook', () => {
    const { result } = renderHook(() => useFollowed());
    expect(result.current).toEqual([]);
    act(() => toggleFollowed('a'));
    act(() => toggleFollowed('b'));
    expect(result.current).toEqual(['a', 'b']);
    act(() => toggleFollowed('a'));
    expect(result.current).toEqual(['b']);
    act(() => {
      for (let k = 0; k < MAX_FOLLOWED + 3; k++) toggleFollowed(`k${k}`);
    });
    expect(result.current).toHaveLength(MAX_FOLLOWED);
    expect(result.current.at(-1)).toBe(`k${MAX_FOLLOWED + 2}`);
    expect(result.current).not.toContain('b');
  });

  it('survives a damaged stored value', () => {
    window.localStorage.setItem('followed', '{not json');
    const { result } = renderHook(() => useFollowed());
    expect(result.current).toEqual([]);
  });

  it('reads one key or several from the route parameter, without duplicates', () => {
    expect(keysFromParam('abc')).toEqual(['abc']);
    expect(keysFromParam('abc, def,abc,,')).toEqual(['abc', 'def']);
    expect(keysFromParam(undefined)).toEqual([]);
  });
});
