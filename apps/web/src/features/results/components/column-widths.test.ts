import type { ColumnDef } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { beneathText, columnRoles, planColumns } from './column-layout.ts';
import { CELL_PADDING, contentWidths } from './column-widths.ts';

/** A fixed advance per character (the canvas measures the real font in a browser). */
const estimatedTextWidth = (text: string, bold: boolean) => text.length * (bold ? 9.8 : 9);

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

/** A category list as the server builds it (report-builder.ts): its rank, then the overall and gender ranks. */
const category: ColumnDef[] = [
  col(16, 'favorite', 'Favourite', { Alignment: 'Center' }),
  col(2, 'text', 'Rank', { Bold: true, Alignment: 'Right' }),
  col(7, 'text', 'Overall', { Alignment: 'Right', Title: { en: 'Overall', fr: 'Pl. gén.' } }),
  col(8, 'text', 'Gender', { Alignment: 'Right' }),
  col(3, 'text', 'Bib', { Alignment: 'Right' }),
  col(4, 'text', 'Name', { Bold: true, UrlColumnIdx: 15 }),
  col(6, 'text', 'Category'),
  col(10, 'time', 'Time', { Bold: true, Alignment: 'Right' }),
  col(13, 'time', 'Gap', { Alignment: 'Right', Settings: { Format: 'gap' } }),
];
const row = (rank: number, overall: number, time: number, gap: number) => {
  const r: unknown[] = Array(17).fill('');
  r[2] = String(rank);
  r[7] = String(overall);
  r[8] = String(overall);
  r[3] = `F${rank}`;
  r[4] = `RUNNER ${rank}`;
  r[6] = 'F 18-34';
  r[10] = time;
  r[13] = gap;
  return r;
};
const roles = columnRoles(category);

describe('columns as wide as their widest value (issue 41)', () => {
  it('a five-digit rank and an hours-long gap fit their columns, header and padding included', () => {
    // The first rows of a 26,410-row table: ranks of one digit, gaps of seconds, times of hours.
    const rows = [row(1, 24, 8_000_000, 0), row(2, 25, 8_009_000, 9_000)];
    const widths = contentWidths(category, roles, rows, 26_410, 'en', estimatedTextWidth);
    const rank = widths[1]!;
    expect(rank).toBeGreaterThanOrEqual(estimatedTextWidth('26410', true) + CELL_PADDING);
    // A gap is never longer than the last time: it gets the hours' shape (+2:13:20) at once.
    expect(widths[8]!).toBeGreaterThanOrEqual(estimatedTextWidth('+2:13:20', false) + CELL_PADDING);
    // A rank of 5 digits in bold is wider than the phone's default 60 px and the desktop's 64 px.
    for (const [width, compact] of [
      [358, true],
      [1180, false],
    ] as const) {
      const plan = planColumns(category, width, undefined, widths);
      expect(plan.compact).toBe(compact);
      const tracks = plan.template.split(' ');
      expect(Number.parseInt(tracks[plan.visible.indexOf(1)]!, 10)).toBe(Math.max(compact ? 60 : 64, rank));
    }
    // The widths are those of the widest values, not more.
    expect(rank).toBe(Math.ceil(estimatedTextWidth('26410', true) + CELL_PADDING));
    // Left-aligned text (the name, the category) is not measured: it shares what is left.
    expect(widths[5]).toBeUndefined();
    expect(widths[6]).toBeUndefined();
  });

  it('on a phone a category list shows the overall rank beneath the name, named by its column', () => {
    const plan = planColumns(category, 358);
    expect(plan.visible.map((i) => category[i]!.Title.en)).toEqual(['Favourite', 'Rank', 'Name', 'Time']);
    expect(plan.beneath.map((i) => roles[i])).toEqual(['overall', 'bib', 'category']);
    expect(beneathText(plan, category, row(1, 8, 1, 0), 'en')).toBe('Overall 8 · F1 · F 18-34');
    expect(beneathText(plan, category, row(1, 8, 1, 0), 'fr')).toBe('Pl. gén. 8 · F1 · F 18-34');
    // On a desktop it is a column of every row.
    expect(planColumns(category, 1180).visible).toContain(2);
  });

  it('measures each text once, however many columns show it (issue 41: the pre-paint’s time)', () => {
    // An overall ranking with its splits: every time column takes the longest time's shape.
    const splits = ['5K', '10K', '15K', '20K', 'Half', '25K', '30K', '35K', '40K'].map((t, k) =>
      col(20 + k, 'time', t, { Alignment: 'Right' }),
    );
    const columns = [...category, ...splits];
    const rows = [row(1, 1, 7_777_000, 0), row(2, 2, 7_800_000, 23_000)];
    for (const r of rows) for (const [k] of splits.entries()) r[20 + k] = 500_000 * (k + 1);
    const asked: string[] = [];
    const widths = contentWidths(columns, columnRoles(columns), rows, 26_410, 'en', (text, bold) => {
      asked.push(`${bold ? 'bold ' : ''}${text}`);
      return estimatedTextWidth(text, bold);
    });
    // The rank (bold), the overall and gender ranks, the time (bold), the gap and nine splits: five
    // texts, each measured once (not 14 measures).
    expect(asked.sort()).toEqual(['+2:10:00', '2:10:00', '26410', 'bold 2:10:00', 'bold 26410'].sort());
    expect(widths[9 + 8]).toBe(Math.ceil(estimatedTextWidth('2:10:00', false) + CELL_PADDING));
  });
});
