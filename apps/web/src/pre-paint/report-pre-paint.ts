import type { ColumnDef, EventDetail, ReportList, ReportTable } from '@tempora/contracts';
import { labelledCell } from '../../../../packages/contracts/src/status-labels.ts';
import { joinTitle } from '../../../../packages/domain/src/text/title.ts';
import { formatDuration, formatGap } from '../../../../packages/domain/src/time-format.ts';
import {
  beneathText,
  columnRoles,
  pageTableWidth,
  planColumns,
  reachedTimes,
} from '../features/results/components/column-layout.ts';
import { contentWidths } from '../features/results/components/column-widths.ts';
import { formatCount } from '../lib/intl.ts';
import { prePaintRoot, spriteIcon } from './dom.ts';
import type { PrePaintIcon } from './icons.ts';
import type { PrePaintStrings } from './strings.ts';

/** What the pre-paint of a report page is drawn from: the boot script's early answers. */
export interface ReportPrePaintInput {
  table: ReportTable;
  list: ReportList;
  event: EventDetail;
  lng: 'en' | 'fr';
  strings: PrePaintStrings;
  /** Width of the viewport (the layout's breakpoints, the table's columns). */
  width: number;
  /** Height of the viewport: rows are drawn to fill it, no more. */
  height: number;
  /** Row keys of the event's favourites (stars, the chip's count). */
  favorites: ReadonlySet<string>;
  /** The environment's blob host for flags ('' = none). */
  blobUrlBase: string;
  /** Address of the icons' sprite (icons.ts). */
  sprite: string;
  /** The navigation drawer is pinned open (its width, 300 px, on wide screens). */
  pinned: boolean;
  /** The brand's logo (the drawer's head). */
  logo: string;
}

/**
 * The pre-paint's style sheet: the values of the React page's (MUI theme, default layout,
 * PageHeader, RaceViewLinks, SearchField, table-styles.ts), measured on the rendered page, under
 * `#pre-paint` only. Rows flow (not absolutely placed, as the virtualiser does) so a row whose name
 * wraps takes the height React measures for it.
 */
export const PRE_PAINT_CSS = `#pre-paint{position:fixed;inset:0;z-index:1400;overflow:hidden;display:flex;background:#f6f8fa;color:rgba(0,0,0,.87);font:400 16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased;pointer-events:none}
#pre-paint *{box-sizing:border-box}
#pre-paint svg{width:20px;height:20px;fill:currentColor;flex-shrink:0}
#pre-paint .pp-rail{width:56px;flex-shrink:0;overflow:hidden;background:#fff;border-right:1px solid rgba(0,0,0,.12)}
#pre-paint .pp-pinned{width:300px}
#pre-paint .pp-logo{display:flex;align-items:center;height:64px;padding:0 12px;border-bottom:1px solid rgba(0,0,0,.12)}
#pre-paint .pp-logo img{width:32px;height:32px}
#pre-paint .pp-nav{padding:8px 0}
#pre-paint .pp-nav div{display:flex;align-items:center;height:48px;padding:0 16px;white-space:nowrap}
#pre-paint .pp-nav svg{width:24px;height:24px;margin-right:16px;color:rgba(0,0,0,.54)}
#pre-paint .pp-col{flex-grow:1;min-width:0;display:flex;flex-direction:column}
#pre-paint .pp-bar{display:flex;align-items:center;gap:8px;min-height:56px;padding:0 16px;background:#39aade;color:#0a1f2b;box-shadow:0 2px 1px -1px rgba(0,0,0,.2),0 1px 1px 0 rgba(0,0,0,.14),0 1px 3px 0 rgba(0,0,0,.12);position:relative;z-index:1}
@media (orientation:landscape){#pre-paint .pp-bar{min-height:48px}}
@media (min-width:600px){#pre-paint .pp-bar{min-height:64px;padding:0 24px}}
#pre-paint .pp-menu{display:inline-flex;padding:8px;margin-left:-12px}
#pre-paint .pp-menu svg{width:24px;height:24px}
#pre-paint .pp-title{flex-grow:1;font-size:20px;line-height:32px;font-weight:700}
#pre-paint .pp-btn{display:inline-flex;align-items:center;padding:6px 8px;font-size:14px;line-height:24.5px;font-weight:600;white-space:nowrap}
#pre-paint .pp-btn svg{margin:0 8px 0 -4px}
#pre-paint .pp-main{flex-grow:1;padding:12px;min-width:0}
@media (min-width:600px){#pre-paint .pp-main{padding:24px}}
#pre-paint .pp-head{margin-bottom:16px}
#pre-paint ol,#pre-paint ul{display:flex;flex-wrap:wrap;align-items:center;list-style:none;margin:0;padding:0}
#pre-paint ol{font-size:14px;line-height:21px;color:rgba(0,0,0,.6)}
#pre-paint ol .pp-sep{margin:0 8px}
#pre-paint ol .pp-here{color:rgba(0,0,0,.87)}
#pre-paint h1{margin:0;font-size:24px;line-height:1.235;font-weight:600}
@media (min-width:600px){#pre-paint h1{font-size:32px}}
#pre-paint ul{gap:8px;margin-bottom:12px}
#pre-paint .pp-chip{display:inline-flex;align-items:center;gap:6px;height:32px;padding:0 10px;border:1px solid rgba(0,0,0,.23);border-radius:32px;font-size:13px;font-weight:500;line-height:1;white-space:nowrap}
#pre-paint .pp-chip svg{color:rgba(0,0,0,.6)}
#pre-paint .pp-chip.pp-state{background:rgba(0,0,0,.06);border-color:transparent}
#pre-paint .pp-chip.pp-official{background:#e8f5e9;border-color:transparent;color:#1b5e20}
#pre-paint .pp-tools{display:flex;flex-wrap:wrap;align-items:center;gap:12px;margin-bottom:8px}
#pre-paint .pp-search{position:relative;display:flex;align-items:center;flex:1 1 220px;max-width:360px;height:40px;border:1px solid rgba(0,0,0,.42);border-radius:8px;background:#fff}
#pre-paint .pp-search svg{margin:0 8px;color:rgba(0,0,0,.6)}
#pre-paint .pp-label{position:absolute;top:-9px;left:8px;padding:0 4px;font-size:12px;line-height:16px;color:rgba(0,0,0,.6);background:#fff}
#pre-paint .pp-placeholder{padding-left:2px;color:#6b7378;white-space:nowrap;overflow:hidden}
#pre-paint .pp-count{font-size:14px;line-height:1.43}
#pre-paint .pp-jump{display:flex;gap:4px;align-items:center;font-size:14px}
#pre-paint .pp-jump span+span{display:flex;align-items:center;box-sizing:border-box;height:40px;padding:0 8px;border:1px solid rgba(0,0,0,.42);border-radius:8px;background:#fff}
#pre-paint .pp-jump .pp-value{width:84px}
#pre-paint .pp-table{min-height:300px;height:calc(100vh - 220px);height:calc(100dvh - 220px);overflow:hidden;border:1px solid rgba(0,0,0,.12);border-radius:8px;background:#fff;font-size:14px}
#pre-paint .rt-head,#pre-paint .rt-row{grid-template-columns:var(--pp-grid)}
#pre-paint .rt-head{display:grid;align-items:center;height:36px;background:#e3f2fa;border-bottom:1px solid rgba(0,0,0,.12);font-size:13px;font-weight:700}
#pre-paint .rt-row{display:grid;grid-auto-rows:auto;align-items:center;min-height:36px;border-bottom:1px solid rgba(0,0,0,.12);background:#fff}
#pre-paint .rt-odd{background:#f7f9fa}
#pre-paint .rt-cell,#pre-paint .rt-th{padding:0 8px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-variant-numeric:tabular-nums}
#pre-paint .rt-th{padding:0 6px}
#pre-paint [data-type=favorite]{padding:0;text-align:center}
#pre-paint .pp-compact .rt-row{min-height:44px}
#pre-paint .pp-compact .rt-two{white-space:normal;line-height:1.2;padding-top:2px;padding-bottom:2px}
#pre-paint .rt-beneath{display:block;overflow:hidden;text-overflow:ellipsis;font-size:12px;font-weight:400;color:#555f66;white-space:nowrap}
#pre-paint .rt-at{font-size:12px;font-weight:400;color:#555f66}#pre-paint .rt-at::before{content:" · "}#pre-paint .rt-cell:has(> .rt-at){font-style:italic}
#pre-paint .pp-compact .rt-at{display:block;line-height:1.1;font-style:normal}#pre-paint .pp-compact .rt-at::before{content:none}
#pre-paint .rt-toggle{padding:0}
#pre-paint .rt-more,#pre-paint .rt-star{display:inline-flex;padding:4px;color:rgba(0,0,0,.6);vertical-align:middle}
#pre-paint .rt-star.pp-on{color:#a86b00}
#pre-paint .rt-link{color:#0b5d87;overflow-wrap:anywhere}
#pre-paint .rt-flag{display:inline-block;line-height:18px;font-size:11px;font-weight:600;padding:0 4px;border:1px solid rgba(0,0,0,.12);border-radius:4px;color:rgba(0,0,0,.6)}
#pre-paint .rt-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

/** Fills `{{name}}` placeholders (`{{count, number}}` too) of a locale text. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)[^}]*\}\}/g, (_, k: string) => values[k] ?? '');
}

/** A regional-indicator emoji for a two-letter country code, else null (as report-cell.tsx). */
function emojiFlag(code: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(code)) return null;
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/**
 * The end of a protest window in the event's zone, named, as the race's links show it
 * (race-view-links.tsx: `formatDateTime` of the domain, which this picture does not load: the
 * same clock and zone name for the zones Intl names alike in both — Europe's, UTC; an American
 * zone's English name, EDT, comes with React's page).
 */
const publicationTime = (ms: number, lng: string, timeZone: string | undefined) =>
  new Intl.DateTimeFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  })
    .format(ms)
    .replace(/GMT(?=[+\-−])/, 'UTC');

/**
 * The first screenful of a report page (issue 19: LCP before React), drawn with DOM calls from the
 * early answers: the default layout's bar (and, on wide screens, the navigation rail's place), the
 * breadcrumbs, the title, the race's view chips, the search box and row count, the table's header
 * and first rows — the markup, class names and sizes of the React page, so nothing moves when
 * React's page replaces it (`endPrePaint`). Every text goes in with `textContent` (data never
 * becomes markup). The whole is `aria-hidden` and inert: a picture of the page, not a second one;
 * screen readers hear React's page (its loading state until then).
 */
export function buildReportPrePaint(doc: Document, input: ReportPrePaintInput): HTMLElement {
  const { table, list, event, lng, strings: s, width } = input;
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string) => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const icon = (name: PrePaintIcon) => spriteIcon(doc, input.sprite, name);
  const root = prePaintRoot(doc, lng);
  const style = el('style', undefined, PRE_PAINT_CSS);
  root.append(style);
  // The navigation drawer's rail (nav-drawer.tsx, signed out: the pre-paint is not for a user).
  const railWidth = width < 900 ? 0 : input.pinned ? 300 : 56;
  if (railWidth) {
    const rail = el('div', input.pinned ? 'pp-rail pp-pinned' : 'pp-rail');
    const logo = el('div', 'pp-logo');
    const img = el('img');
    img.src = input.logo;
    img.alt = '';
    logo.append(img);
    const nav = el('div', 'pp-nav');
    const entries: [PrePaintIcon, string][] = [
      ['home', s.home],
      ['magnify', s.navTracking],
      ['photos', s.navPhotos],
      ['login', s.signIn],
    ];
    for (const [name, label] of entries) {
      const item = el('div');
      item.append(icon(name));
      if (input.pinned) item.append(label);
      nav.append(item);
    }
    rail.append(logo, nav);
    root.append(rail);
  }
  const col = el('div', 'pp-col');
  root.append(col);

  // The default layout's bar (default-layout.tsx): menu button below 900 px, name, language, sign in.
  const bar = el('div', 'pp-bar');
  if (width < 900) {
    const menu = el('span', 'pp-menu');
    menu.append(icon('menu'));
    bar.append(menu);
  }
  bar.append(el('span', 'pp-title', s.product));
  const language = el('span', 'pp-btn');
  language.append(icon('translate'), lng.toUpperCase());
  const signIn = el('span', 'pp-btn');
  signIn.append(icon('account'), s.signIn);
  bar.append(language, signIn);
  col.append(bar);

  const main = el('div', 'pp-main');
  col.append(main);
  // PageHeader: breadcrumbs (Home / Results / report) and the title (event · race · report).
  const head = el('div', 'pp-head');
  const crumbs = el('ol');
  const reportTitle = table.title[lng];
  // The event stays in the breadcrumbs (issue 27), as report-view.tsx puts it.
  [s.home, list.event.name, s.reportList, reportTitle].forEach((label, i, all) => {
    if (i > 0) crumbs.append(el('li', 'pp-sep', '/'));
    crumbs.append(el('li', i === all.length - 1 ? 'pp-here' : undefined, label));
  });
  const race = list.groups.find((g) => g.key === table.group)?.name[lng];
  head.append(crumbs, el('h1', undefined, joinTitle([list.event.name, race, reportTitle])));
  main.append(head);

  // The race's view chips (RaceViewLinks with `withEvent`), as report-links.tsx picks the race.
  const inContext = event.races.filter((r) => r.db === table.db);
  const raceOf =
    event.races.find((r) => r.id === table.group) ?? (inContext.length === 1 ? inContext[0] : undefined);
  if (raceOf) {
    const chips = el('ul');
    const chip = (name: PrePaintIcon, label: string, tone = '') => {
      const li = el('li');
      const c = el('span', `pp-chip${tone}`);
      c.append(icon(name), label);
      li.append(c);
      chips.append(li);
    };
    const published = raceOf.publication;
    // On a phone the views are folded behind one button (race-view-links.tsx, issue 41).
    const folded = width < 600;
    if (published)
      chip(
        'certificate',
        fill(s[published.state], {
          time: published.protestEndsMs ? publicationTime(published.protestEndsMs, lng, event.timeZone) : '',
        }),
        published.state === 'official' ? ' pp-official' : ' pp-state',
      );
    if (folded) {
      const li = el('li');
      const c = el('span', 'pp-chip', s.moreViews);
      c.append(icon('chevron'));
      li.append(c);
      chips.append(li);
    } else {
      chip(
        'star',
        input.favorites.size ? fill(s.favoritesCount, { count: String(input.favorites.size) }) : s.favorites,
      );
      if (raceOf.format === 'laps' || raceOf.format === 'timeLimited' || raceOf.format === 'backyard')
        chip('repeat', s.laps);
      if (raceOf.format === 'multisport' || raceOf.format === 'relay')
        chip('swap', raceOf.format === 'relay' ? s.relayLegs : s.legs);
      chip('podium', s.leaders);
      chip('chart', s.stats);
      if (raceOf.startType === 'individual') chip('timer', s.clm);
      chip('monitor', s.scroller);
      if (event.available?.map ?? true) chip('map', s.map);
      chip('athlete', s.tracking);
      chip('list', s.results);
      for (const series of event.series ?? []) chip('trophy', fill(s.series, { name: series.name }));
    }
    main.append(chips);
  }

  // The search box and the row count (report-view.tsx).
  const tools = el('div', 'pp-tools');
  const search = el('div', 'pp-search');
  search.append(
    el('span', 'pp-label', s.search),
    icon('magnify'),
    el('span', 'pp-placeholder', s.searchPlaceholder),
  );
  // The count as the app writes it (`{{count, number}}`), without `Intl`: a page's first
  // formatter loads ICU's data, 20–65 ms at once (lib/intl.ts), neither here nor in React's render.
  const count = formatCount(table.total, lng);
  // The jump to a rank or a bib (jump-to-row.tsx): its boxes, so the table starts where it will.
  const jump = el('div', 'pp-jump');
  jump.append(
    el('span', '', s.jumpLabel),
    el('span', '', `${s.jumpRank} ▾`),
    el('span', 'pp-value', ''),
    el('span', '', s.jumpGo),
  );
  tools.append(
    search,
    el('span', 'pp-count', fill(table.total === 1 ? s.rowsOne : s.rowsOther, { count })),
    jump,
  );
  main.append(tools);

  // The table (report-table.tsx, report-row.tsx, report-cell.tsx): the main column's width is the
  // viewport's less the rail, the padding and the table's border.
  const tableWidth = pageTableWidth(width, Boolean(input.pinned));
  const plan = planColumns(
    table.columns,
    tableWidth,
    new Set(reachedTimes(table.columns, table.rows).split(',').map(Number)),
    contentWidths(table.columns, columnRoles(table.columns), table.rows, table.total, lng),
  );
  const grid = el('div', plan.compact ? 'pp-table pp-compact' : 'pp-table');
  // One grid for the header and every row (set once: a style per row was most of the build's time).
  grid.style.setProperty('--pp-grid', plan.template);
  const header = el('div', 'rt-head');
  for (const i of plan.visible) {
    const column = table.columns[i]!;
    const th = el('div', 'rt-th');
    th.dataset.type = column.Type;
    th.style.textAlign = alignmentOf(column);
    if (column.Type === 'favorite' || column.Type === 'spacer')
      th.append(el('span', 'rt-hidden', column.Title[lng]));
    else th.textContent = column.Title[lng];
    header.append(th);
  }
  if (plan.hidden.length) {
    const th = el('div', 'rt-th');
    th.append(el('span', 'rt-hidden', s.details));
    header.append(th);
  }
  grid.append(header);
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  // The rows the table's box can show (issue 41: not the viewport's): its height (PRE_PAINT_CSS)
  // less its header, the shortest row 36 px (44 on a phone).
  const rows = table.rows.slice(
    0,
    Math.ceil((Math.max(300, input.height - 220) - 36) / (plan.compact ? 44 : 36)),
  );
  rows.forEach((row, index) => {
    const key = text(row[table.keyField]);
    const line = el('div', index % 2 ? 'rt-row rt-odd' : 'rt-row');
    const beneath = beneathText(plan, table.columns, row, lng);
    for (const i of plan.visible) {
      const column = table.columns[i]!;
      const two = plan.roles[i] === 'name' && beneath;
      const cell = el('div', two ? 'rt-cell rt-two' : 'rt-cell');
      cell.dataset.type = column.Type;
      if (column.Colspan > 1) cell.style.gridColumn = `span ${column.Colspan}`;
      const align = alignmentOf(column);
      if (align !== 'left') cell.style.textAlign = align;
      if (column.Bold) cell.style.fontWeight = '700';
      if (column.Italic) cell.style.fontStyle = 'italic';
      const content = cellContent(column, row, input.favorites.has(key), plan.roles[i] === 'rank');
      if (content) {
        // A link as report-cell.tsx's `safeUrl` keeps it (never `javascript:`): drawn, not followable.
        const url = column.UrlColumnIdx >= 0 ? text(row[column.UrlColumnIdx]) : '';
        const linked = url.trim() && !/^\s*(javascript|data|vbscript):/i.test(url);
        const holder = linked ? el('span', 'rt-link') : cell;
        holder.append(content);
        if (holder !== cell) cell.append(holder);
      }
      if (two) cell.append(el('span', 'rt-beneath', beneath));
      line.append(cell);
    }
    if (plan.hidden.length) {
      const toggle = el('div', 'rt-cell rt-toggle');
      const more = el('span', 'rt-more');
      more.append(icon('chevron'));
      toggle.append(more);
      line.append(toggle);
    }
    grid.append(line);
  });
  main.append(grid);
  return root;

  /** A cell's content, as report-cell.tsx's `Content` shows it. */
  function cellContent(column: ColumnDef, row: unknown[], favorite: boolean, short: boolean) {
    const value = row[column.FieldIdx];
    switch (column.Type) {
      case 'time': {
        const ms = typeof value === 'number' ? value : Number(value);
        if (value === null || value === undefined || value === '') return null;
        const decimals = column.Settings.Decimals ?? 0;
        if (!Number.isFinite(ms)) return doc.createTextNode(String(value));
        const time =
          column.Settings.Format === 'gap' ? formatGap(ms, lng, decimals) : formatDuration(ms, decimals);
        // Where a running time was taken, as report-cell.tsx shows it (issue 27).
        const at = column.Settings.At === undefined ? '' : text(row[column.Settings.At]);
        if (!at || !time) return doc.createTextNode(time);
        const both = doc.createDocumentFragment();
        const names = column.Settings.Names;
        both.append(
          time,
          el('span', 'rt-at', lng === 'fr' && names && Object.hasOwn(names, at) ? names[at] : at),
        );
        return both;
      }
      case 'favorite': {
        const star = el('span', favorite ? 'rt-star pp-on' : 'rt-star');
        star.append(icon(favorite ? 'star' : 'starOutline'));
        return star;
      }
      case 'flag': {
        const code = text(value);
        if (!code) return null;
        if (input.blobUrlBase) {
          const img = el('img');
          const base = input.blobUrlBase.endsWith('/') ? input.blobUrlBase : `${input.blobUrlBase}/`;
          img.src = `${base}flags/${encodeURIComponent(code)}.png`;
          img.alt = code;
          img.height = 20;
          img.style.verticalAlign = 'middle';
          img.style.height = '20px';
          return img;
        }
        return el('abbr', 'rt-flag', emojiFlag(code) ?? code);
      }
      case 'html':
      case 'image':
      case 'spacer':
        // Sanitised or fetched content is React's to show; the cell keeps its place.
        return null;
      default: {
        if (value === null || value === undefined) return null;
        return doc.createTextNode(String(labelledCell(column, value, lng, short)));
      }
    }
  }
}

/** Text alignment of a column (report-cell.tsx's `alignmentOf`). */
function alignmentOf(column: Pick<ColumnDef, 'Alignment'>): 'center' | 'right' | 'left' {
  return column.Alignment === 'Center' ? 'center' : column.Alignment === 'Right' ? 'right' : 'left';
}
