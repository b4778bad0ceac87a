import { QueryClient } from '@tanstack/react-query';
import type { ReportTable } from '@tempora/contracts';
import { describe, expect, it, vi } from 'vitest';
import { receivePatch } from './use-live-report.ts';

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
});
