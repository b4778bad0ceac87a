import type { ColumnDef, ReportTable as Table } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { ReportTable } from './report-table.tsx';

initI18n('en');

// jsdom has no layout: give elements a viewport-sized box so the virtualiser has a window.
const box = { clientHeight: 800, clientWidth: 1200, offsetHeight: 800, offsetWidth: 1200 };
// The virtualiser reads the scroll element's size from getBoundingClientRect (virtual-core 3.13).
const rect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 1200, bottom: 800, width: 1200, height: 800 });
const saved = Object.fromEntries(
  Object.keys(box).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]),
);
const savedRect = Element.prototype.getBoundingClientRect;
beforeAll(() => {
  for (const [k, v] of Object.entries(box)) {
    Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  }
  Element.prototype.getBoundingClientRect = () => ({ ...rect(), toJSON: rect }) as DOMRect;
});
afterAll(() => {
  for (const [k, d] of Object.entries(saved)) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
  Element.prototype.getBoundingClientRect = savedRect;
});

const col = (
  FieldIdx: number,
  Type: ColumnDef['Type'],
  en: string,
  over: Partial<ColumnDef> = {},
): ColumnDef => ({
  FieldIdx,
  Colspan: 1,
  Bold: false,
  Italic: false,
  Alignment: 'Left',
  UrlColumnIdx: -1,
  Settings: {},
  Title: { en, fr: en },
  Type,
  ...over,
});

function bigTable(n: number): Table {
  const rows = Array.from({ length: n }, (_, i) => [
    String(i + 1),
    i,
    String(i + 1),
    `RUNNER ${i}`,
    (i + 1) * 1000,
  ]);
  return {
    eventId: 'e',
    db: 'd',
    group: 'g',
    report: 'LIVE1',
    title: { en: 'Overall', fr: 'Général' },
    version: 1,
    columns: [
      col(0, 'favorite', 'Favourite'),
      col(2, 'text', 'Bib', { Alignment: 'Right' }),
      col(3, 'text', 'Name', { Bold: true }),
      col(4, 'time', 'Time', { Alignment: 'Right' }),
    ],
    rows,
    total: n,
    keyField: 0,
    orderField: 1,
  };
}

describe('report table (spec §3, product.md numbers)', () => {
  it('keeps ≤ 100 rows in the DOM for 26,000 rows, with ARIA row counts and indexes', () => {
    const table = bigTable(26_000);
    render(
      <ReportTable
        table={table}
        rows={table.rows}
        favorites={new Set(['2'])}
        onToggleFavorite={vi.fn()}
        changed={new Map([['3', Date.now()]])}
      />,
    );
    const grid = screen.getByRole('table', { name: 'Overall' });
    expect(grid.getAttribute('aria-rowcount')).toBe('26001');
    const rows = within(grid).getAllByRole('row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThanOrEqual(100);
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Favourite', 'Bib', 'Name', 'Time']);
    expect(rows[1]!.getAttribute('aria-rowindex')).toBe('2');
    expect(within(rows[1]!).getByText('RUNNER 0')).toBeTruthy();
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['', '1', 'RUNNER 0', '1']);
    expect(within(rows[2]!).getByRole('button').getAttribute('aria-pressed')).toBe('true');
    expect(rows[3]!.getAttribute('data-changed')).toBe('true');
  });

  it('says so when there are no rows', () => {
    const table = bigTable(0);
    render(<ReportTable table={table} rows={[]} favorites={new Set()} onToggleFavorite={vi.fn()} />);
    expect(screen.getByText('No runner here.')).toBeTruthy();
  });
});
