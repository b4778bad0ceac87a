import { QueryClient } from '@tanstack/react-query';
import type { ReportTable } from '@tempora/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPatchCode, receivePatch } from './use-live-report.ts';

// The patch code is loaded lazily (the report page's first JavaScript): these tests fold patches.
beforeAll(async () => {
  await loadPatchCode();
});

const key = ['results', 'report', { eventId: 'e', group: 'g', report: 'LIVE1' }];
const table = (): ReportTable => ({
  eventId: 'e',
  db: 'd',
  group: 'g',
  report: 'LIVE1',
  title: { en: 'Overall', fr: 'Général' },
  version: 3,
  columns: [],
  rows: [
    ['a', 1],
    ['b', 2],
  ],
  total: 2,
  keyField: 0,
  orderField: 1,
});

function client() {
  const c = new QueryClient();
  c.setQueryData(key, table());
  const invalidate = vi.spyOn(c, 'invalidateQueries').mockResolvedValue();
  return { c, invalidate };
}

describe('live report patches into the query cache (issue 6)', () => {
  it('applies a patch in place of the cached table and returns the changed keys', () => {
    const { c, invalidate } = client();
    const keys = receivePatch(c, key, {
      group: 'g',
      report: 'LIVE1',
      fromVersion: 3,
      version: 4,
      upserts: [['b', 0]],
      removes: ['a'],
    });
    expect(keys).toEqual(['b']);
    expect(c.getQueryData<ReportTable>(key)).toMatchObject({ version: 4, rows: [['b', 0]] });
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('refetches on a version gap and on a reload request', () => {
    const { c, invalidate } = client();
    receivePatch(c, key, {
      group: 'g',
      report: 'LIVE1',
      fromVersion: 7,
      version: 8,
      upserts: [],
      removes: [],
    });
    receivePatch(c, key, { group: 'g', report: 'LIVE1', version: 9, reload: true });
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(c.getQueryData<ReportTable>(key)?.version).toBe(3);
  });

  it('ignores patches of other reports and patches it already has', () => {
    const { c, invalidate } = client();
    expect(
      receivePatch(c, key, {
        group: 'g',
        report: 'LIVE2',
        fromVersion: 3,
        version: 4,
        upserts: [],
        removes: [],
      }),
    ).toBeNull();
    expect(
      receivePatch(c, key, {
        group: 'g',
        report: 'LIVE1',
        fromVersion: 2,
        version: 3,
        upserts: [],
        removes: [],
      }),
    ).toBeNull();
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('keeps each rank window at its own version: two windows changed by one publication both apply (issue 28)', () => {
    // As reportQuery: no structural sharing (the table kept is the object patched).
    const c = new QueryClient({ defaultOptions: { queries: { structuralSharing: false } } });
    const rows = Array.from({ length: 90 }, (_, i) => [`k${i}`, i]);
    c.setQueryData(key, { ...table(), rows, total: 90, version: 5 });
    const invalidate = vi.spyOn(c, 'invalidateQueries').mockResolvedValue();
    const patch = (offset: number, from: number) => ({
      group: 'g',
      report: 'LIVE1',
      fromVersion: from,
      version: 8,
      upserts: [[`k${offset + 1}`, offset - 0.5]],
      removes: [],
      window: 30,
      ...(offset ? { offset } : {}),
    });
    // Window 2 (rows 60–89) then window 1 (30–59), both to version 8.
    expect(receivePatch(c, key, patch(60, 5), undefined, 2)).toEqual(['k61']);
    expect(receivePatch(c, key, patch(30, 4), undefined, 1)).toEqual(['k31']);
    const got = c.getQueryData<ReportTable>(key)!;
    expect(got.version).toBe(8);
    expect(got.rows[30]![0]).toBe('k31');
    expect(got.rows[60]![0]).toBe('k61');
    // Again: already held. A window patch from after what the window holds: a gap, no whole refetch.
    expect(receivePatch(c, key, patch(30, 4), undefined, 1)).toBeNull();
    expect(receivePatch(c, key, { ...patch(0, 7), version: 9 }, undefined, 0)).toBeNull();
    expect(c.getQueryData<ReportTable>(key)).toBe(got);
    expect(invalidate).not.toHaveBeenCalled();
    // A patch of the whole report does not apply to a table kept by windows: fetched again whole.
    receivePatch(c, key, {
      group: 'g',
      report: 'LIVE1',
      fromVersion: 8,
      version: 10,
      upserts: [],
      removes: [],
    });
    expect(invalidate).toHaveBeenCalledTimes(1);
  });
});
