import type { ColumnDef, EventDetail, ReportList, ReportTable } from '@tempora/contracts';
import { describe, expect, it } from 'vitest';
import { columnRoles, planColumns, reachedTimes } from '../features/results/components/column-layout.ts';
import { contentWidths } from '../features/results/components/column-widths.ts';
import enCommon from '../locales/en/common.json';
import enResults from '../locales/en/results.json';
import enViews from '../locales/en/views.json';
import frCommon from '../locales/fr/common.json';
import frResults from '../locales/fr/results.json';
import frViews from '../locales/fr/views.json';
import { buildReportPrePaint, type ReportPrePaintInput } from './report-pre-paint.ts';
import { prePaintStrings } from './strings.ts';

const strings = {
  en: prePaintStrings({ common: enCommon, results: enResults, views: enViews }),
  fr: prePaintStrings({ common: frCommon, results: frResults, views: frViews }),
};

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
  Title: { en, fr: `${en} (fr)` },
  Type,
  ...over,
});

// The columns of the server's overall report (Boston's, shortened): star, rank with status labels,
// bib, name linking to the tracking card, nationality, category, a split and the finish time.
const columns: ColumnDef[] = [
  col(9, 'favorite', 'Favourite', { Alignment: 'Center' }),
  col(1, 'text', 'Rank', { Bold: true, Alignment: 'Right', Settings: { Labels: 'status' } }),
  col(0, 'text', 'Bib', { Alignment: 'Right' }),
  col(2, 'text', 'Name', { Bold: true, UrlColumnIdx: 8 }),
  col(3, 'flag', 'Nat.', { Alignment: 'Center' }),
  col(4, 'text', 'Category'),
  col(5, 'time', '10K', { Alignment: 'Right' }),
  col(6, 'time', 'Time', { Bold: true, Alignment: 'Right' }),
];
const XSS = '<img src=x onerror="window.__xss=1">Bob';
const table: ReportTable = {
  eventId: 'ev',
  db: 'db1',
  group: 'race-1',
  report: 'LIVE1',
  title: { en: 'Overall', fr: 'Classement général' },
  version: 1,
  columns,
  rows: [
    ['11', '1', 'KIRUI Geoffrey', 'KEN', 'M 18-34', 1_828_000, 7_777_000, 0, '#/tracking/k11', 'x'],
    ['17', '2', XSS, 'USA', 'M 18-34', 1_827_000, 7_798_000, 0, '#/tracking/k17', 'x'],
    ['99', 'DNF', 'LAST Runner', 'FR', 'M 40-44', 2_000_000, 0, 0, 'javascript:alert(1)', 'x'],
  ],
  total: 26_410,
  keyField: 0,
  orderField: 7,
};
const list: ReportList = {
  event: { id: 'ev', name: 'Boston Marathon 2017', status: 'finished' },
  groups: [{ key: 'race-1', db: 'db1', name: { en: 'Marathon', fr: 'Marathon (fr)' }, reports: [] }],
} as unknown as ReportList;
const event = {
  id: 'ev',
  name: 'Boston Marathon 2017',
  series: [{ id: 's1', name: 'Demo <b>Challenge</b>' }],
  races: [{ id: 'race-1', db: 'db1', name: 'Marathon', distanceM: 42195, startType: 'mass' }],
} as unknown as EventDetail;

const paint = (over: Partial<ReportPrePaintInput> = {}) => {
  const lng = over.lng ?? 'en';
  return buildReportPrePaint(document, {
    table,
    list,
    event,
    lng,
    strings: strings[lng],
    width: 390,
    height: 844,
    favorites: new Set(),
    blobUrlBase: '',
    sprite: '/assets/pre-paint-icons.svg',
    pinned: false,
    logo: '/favicon.svg',
    ...over,
  });
};

const rowTexts = (root: HTMLElement) =>
  [...root.querySelectorAll('.rt-row')].map((row) =>
    [...row.querySelectorAll(':scope > .rt-cell')].map((c) => c.textContent),
  );

describe('the report pre-paint', () => {
  it('shows the publication state of a race state and its legs page as the links do (issue 31)', () => {
    const relay = {
      ...event,
      races: [{ ...event.races[0]!, format: 'relay', publication: { state: 'official' } }],
    } as EventDetail;
    const chips = (lng: 'en' | 'fr', width = 1280) =>
      [...paint({ event: relay, lng, width }).querySelectorAll('.pp-chip')].map((c) => c.textContent);
    expect(chips('en').slice(0, 4)).toEqual(['Official results', 'Favourites', 'Relay legs', 'Leaders']);
    expect(chips('fr')[0]).toBe('Résultats officiels');
    expect(chips('fr')[2]).toBe('Relais');
    // On a phone the views are folded behind one button, the state in sight (issue 41).
    expect(chips('en', 390)).toEqual(['Official results', 'Views']);
    expect(chips('fr', 390)).toEqual(['Résultats officiels', 'Vues']);
  });

  it('draws the page title, the breadcrumbs and the first rows with rank, name and time', () => {
    const root = paint();
    expect(root.id).toBe('pre-paint');
    expect(root.querySelector('h1')?.textContent).toBe('Boston Marathon 2017 · Overall');
    expect(root.querySelector('ol')?.textContent).toBe('Home/Boston Marathon 2017/Results/Overall');
    const rows = rowTexts(root);
    expect(rows).toHaveLength(3);
    // Phone width: star, rank, name (bib and category beneath), time, the details toggle.
    expect(rows[0]).toEqual(['', '1', 'KIRUI Geoffrey11 · M 18-34', '2:09:37', '']);
    expect(root.querySelector('.pp-count')?.textContent).toBe('26,410 runners');
    // Names look like the table's links, but a `javascript:` address is no link there either.
    expect([...root.querySelectorAll('.rt-row')].map((r) => !!r.querySelector('.rt-link'))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('lays the columns out as the React table does at the same width', () => {
    for (const width of [390, 1280]) {
      const root = paint({ width });
      // The table's width: the viewport's less the rail (≥ 900 px), the padding and the border.
      // Its columns as wide as their widest value (issue 41), from the same rows as React's first render.
      const plan = planColumns(
        columns,
        width - (width >= 900 ? 56 : 0) - (width >= 600 ? 48 : 24) - 2,
        new Set(reachedTimes(columns, table.rows).split(',').map(Number)),
        contentWidths(columns, columnRoles(columns), table.rows, table.total, 'en'),
      );
      const head = root.querySelector<HTMLElement>('.rt-head')!;
      expect(root.querySelector<HTMLElement>('.pp-table')!.style.getPropertyValue('--pp-grid')).toBe(
        plan.template,
      );
      const titles = [...head.children].map((th) => th.textContent);
      expect(titles.slice(0, plan.visible.length)).toEqual(plan.visible.map((i) => columns[i]!.Title.en));
      expect(root.querySelector('.pp-table')?.classList.contains('pp-compact')).toBe(plan.compact);
    }
  });

  it('puts data in as text, never as markup', () => {
    const root = paint({ width: 1280 });
    const second = root.querySelectorAll('.rt-row')[1]!;
    expect(second.textContent).toContain(XSS);
    // No element came from the data: the only pictures are the rail's logo.
    expect([...root.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual(['/favicon.svg']);
    expect(root.querySelector('b')).toBeNull();
    expect(root.textContent).toContain('Series: Demo <b>Challenge</b>');
    // Links are pictures of links: nothing to follow or focus in the pre-paint.
    expect(root.querySelector('a, button, input, [href]:not(use)')).toBeNull();
  });

  it('is hidden from assistive technology and inert (React’s page is the one read)', () => {
    const root = paint();
    expect(root.getAttribute('aria-hidden')).toBe('true');
    expect(root.hasAttribute('inert')).toBe(true);
    expect(root.getAttribute('lang')).toBe('en');
  });

  it('speaks French: titles, status labels, numbers', () => {
    const root = paint({ lng: 'fr', width: 1280 });
    expect(root.getAttribute('lang')).toBe('fr');
    expect(root.querySelector('h1')?.textContent).toBe(
      'Boston Marathon 2017 · Marathon (fr) · Classement général',
    );
    expect(root.querySelector('.pp-count')?.textContent).toMatch(/^26\s410 coureurs$/u);
    expect(root.querySelector('.pp-placeholder')?.textContent).toBe('Nom ou dossard');
    // A runner out of the race: the rank column's short label, in French.
    expect(rowTexts(root)[2]![1]).toBe('Ab.');
    expect(root.querySelector('.rt-head')?.textContent).toContain('Name (fr)');
  });

  it('draws the rows the table’s box shows, no more', () => {
    const many = {
      ...table,
      rows: Array.from({ length: 100 }, (_, i) => [String(i), String(i + 1), `R ${i}`]),
    };
    // The box is the viewport's height less 220 px (300 px at least), its header 36 px; rows of
    // 44 px on a phone, 36 px on a desktop (issue 41: 24 rows were drawn for the 14 a phone shows).
    expect(paint({ table: many, height: 844 }).querySelectorAll('.rt-row')).toHaveLength(14);
    expect(paint({ table: many, height: 300 }).querySelectorAll('.rt-row')).toHaveLength(6);
    expect(paint({ table: many, height: 900, width: 1280 }).querySelectorAll('.rt-row')).toHaveLength(18);
  });

  it('shows the stars of the event’s favourites and their count', () => {
    const root = paint({ favorites: new Set(['17']) });
    const stars = [...root.querySelectorAll('.rt-star')];
    expect(stars.map((s) => s.classList.contains('pp-on'))).toEqual([false, true, false]);
    const wide = paint({ favorites: new Set(['17']), width: 1280 });
    expect(wide.querySelector('.pp-chip')?.textContent).toBe('Favourites (1)');
  });
});
