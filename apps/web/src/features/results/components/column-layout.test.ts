import type { ColumnDef } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { columnRoles, planColumns } from './column-layout.ts';

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

/** The server's ranking report of a marathon (report-builder.ts): 10 splits before Time, Gap, Pace. */
const marathon: ColumnDef[] = [
  col(16, 'favorite', 'Favourite', { Alignment: 'Center' }),
  col(2, 'text', 'Rank', { Bold: true, Alignment: 'Right' }),
  col(3, 'text', 'Bib', { Alignment: 'Right' }),
  col(4, 'text', 'Name', { Bold: true, UrlColumnIdx: 15 }),
  col(5, 'flag', 'Nat.', { Alignment: 'Center' }),
  col(6, 'text', 'Club', { Italic: true }),
  col(7, 'text', 'Category'),
  col(9, 'text', 'Cat. rank', { Alignment: 'Right' }),
  ...Array.from({ length: 10 }, (_, p) => col(18 + p, 'time', `${(p + 1) * 4} km`, { Alignment: 'Right' })),
  col(10, 'time', 'Time', { Bold: true, Alignment: 'Right' }),
  col(13, 'time', 'Gap', { Alignment: 'Right' }),
  col(12, 'text', 'Pace', { Alignment: 'Right' }),
];
const titles = (plan: { visible: number[] }) => plan.visible.map((i) => marathon[i]!.Title.en);

describe('columns laid out by priority for the width (issue 19)', () => {
  it('reads the roles of the server report columns', () => {
    const roles = columnRoles(marathon);
    expect(roles.slice(0, 8)).toEqual([
      'favorite',
      'rank',
      'bib',
      'name',
      'flag',
      'other',
      'category',
      'other',
    ]);
    expect(roles.slice(-3)).toEqual(['time', 'gap', 'pace']);
    expect(roles[8]).toBe('split');
  });

  it('on a 390 px phone: star, rank, name and time; bib and category beneath; the rest on expanding', () => {
    const plan = planColumns(marathon, 358);
    expect(plan.compact).toBe(true);
    expect(titles(plan)).toEqual(['Favourite', 'Rank', 'Name', 'Time']);
    expect(plan.beneath.map((i) => marathon[i]!.Title.en)).toEqual(['Bib', 'Category']);
    expect(plan.hidden.map((i) => marathon[i]!.Title.en)).toEqual(
      expect.arrayContaining(['Gap', 'Pace', 'Club', 'Nat.', '4 km', '40 km']),
    );
    // Fixed tracks and the name's minimum fit in the width: no horizontal scroll.
    const fixed = plan.template.match(/\d+px/g)!.map((px) => Number.parseInt(px, 10));
    expect(fixed.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(358);
  });

  it('at 1280 px Time, Gap and Pace stay, splits go first when the width runs out', () => {
    const plan = planColumns(marathon, 1180);
    expect(plan.compact).toBe(false);
    expect(titles(plan)).toEqual(
      expect.arrayContaining(['Rank', 'Bib', 'Name', 'Category', 'Time', 'Gap', 'Pace']),
    );
    expect(plan.hidden.length).toBeGreaterThan(0);
    expect(plan.hidden.every((i) => columnRoles(marathon)[i] === 'split')).toBe(true);
    // Report order is kept among the visible columns.
    expect(plan.visible).toEqual([...plan.visible].sort((a, b) => a - b));
  });

  it('shows every column and no expand button when everything fits', () => {
    const plan = planColumns(marathon, 4000);
    expect(plan.visible).toHaveLength(marathon.length);
    expect(plan.hidden).toEqual([]);
    expect(plan.template).not.toMatch(/40px$/);
  });

  it('keeps the bib as a column in a start list (no rank)', () => {
    const start = [
      col(0, 'favorite', 'Favourite'),
      col(2, 'text', 'Bib', { Bold: true, Alignment: 'Right' }),
      col(3, 'text', 'Name', { UrlColumnIdx: 9 }),
      col(6, 'text', 'Category'),
    ];
    const plan = planColumns(start, 358);
    expect(plan.visible.map((i) => start[i]!.Title.en)).toEqual(['Favourite', 'Bib', 'Name']);
    expect(plan.beneath.map((i) => start[i]!.Title.en)).toEqual(['Category']);
  });
});
