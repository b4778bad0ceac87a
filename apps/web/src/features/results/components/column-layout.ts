import type { ColumnDef } from '@tempora/contracts';

/**
 * What a column is to a spectator. Report definitions (spec §3) carry no such role, so it is read
 * from the column's type, alignment, position and English title — the server's report builder
 * names them `Rank`/`Place`, `Bib`, `Name` (the link), `Category`, `Time`, `Gap`, `Pace`; a column
 * we do not recognise is `other` and keeps its place by order.
 */
export type ColumnRole =
  | 'favorite'
  | 'rank'
  | 'overall'
  | 'name'
  | 'bib'
  | 'category'
  | 'time'
  | 'gap'
  | 'pace'
  | 'flag'
  | 'split'
  | 'other';

const titleOf = (c: ColumnDef) => c.Title.en.trim().toLowerCase();

/** Index of the name column: the first link column, else the first bold left-aligned text. */
function nameIndex(columns: readonly ColumnDef[]): number {
  const link = columns.findIndex((c) => c.UrlColumnIdx >= 0 && c.Type !== 'favorite');
  if (link >= 0) return link;
  return columns.findIndex((c) => c.Type === 'text' && c.Bold && c.Alignment !== 'Right');
}

/** The role of every column of a report. */
export function columnRoles(columns: readonly ColumnDef[]): ColumnRole[] {
  const name = nameIndex(columns);
  const times = columns.map((c, i) => (c.Type === 'time' ? i : -1)).filter((i) => i >= 0);
  const mainTime = times.find((i) => columns[i]!.Bold) ?? times[times.length - 1] ?? -1;
  let rankTaken = false;
  return columns.map((c, i) => {
    const title = titleOf(c);
    if (c.Type === 'favorite') return 'favorite';
    if (i === name) return 'name';
    if (i === mainTime) return 'time';
    if (c.Type === 'flag') return 'flag';
    if (/\bgap\b|écart/.test(title)) return 'gap';
    if (/\bpace\b|\bspeed\b|allure|vitesse/.test(title)) return 'pace';
    if (/^(bib|dossard)$/.test(title)) return 'bib';
    if (/^(category|cat\.?|catégorie)$/.test(title)) return 'category';
    // A gender or category list's overall rank beside its own (issue 27's `rankOverall`).
    if (rankTaken && c.Type === 'text' && title === 'overall') return 'overall';
    if (
      !rankTaken &&
      (i < name || name < 0) &&
      c.Type === 'text' &&
      /\b(rank|place|pos\.?|pl\.?)$/.test(title)
    ) {
      rankTaken = true;
      return 'rank';
    }
    if (c.Type === 'time') return 'split';
    return 'other';
  });
}

/** Narrower widths of the essential columns on a phone. */
// A rank fits five digits (Boston's 26,410 runners, issue 27) and its header ("Place").
const COMPACT: Partial<Record<ColumnRole, number>> = { favorite: 36, rank: 60, bib: 52, time: 80 };

/** Width (px) a column needs to show its content (`compact`: on a phone). */
export function columnWidth(column: ColumnDef, role: ColumnRole, compact = false): number {
  const narrow = compact ? COMPACT[role] : undefined;
  if (narrow !== undefined) return narrow * column.Colspan;
  const fixed: Partial<Record<ColumnRole, number>> = {
    favorite: 40,
    rank: 64,
    bib: 76,
    time: 80,
    gap: 72,
    pace: 72,
    flag: 52,
    split: 76,
  };
  // A time that says where it was taken (`1:30:11 · 30 km`, issue 27) needs room for the point,
  // and so does a gap (`+2:50 · 7.5 km`, issue 43).
  if (role === 'time' && column.Settings.At !== undefined) return 132 * column.Colspan;
  if (role === 'gap' && column.Settings.At !== undefined) return 120 * column.Colspan;
  const w = fixed[role];
  if (w !== undefined) return w * column.Colspan;
  if (role === 'name') return 170 * column.Colspan;
  if (column.Type === 'spacer') return 12 * column.Colspan;
  if (column.Type === 'image') return 48 * column.Colspan;
  // A narrow column is as wide as its title ("Cat. rank" was cut to "Cat. r…", issue 27).
  const title = Math.max(column.Title.en.length, column.Title.fr.length);
  if (column.Alignment === 'Right' || column.Alignment === 'Center')
    return Math.max(72, 8 * title + 16) * column.Colspan;
  return 110 * column.Colspan;
}

/** Below this width a row is compact: bib and category go beneath the name, the name wraps. */
export const COMPACT_BELOW = 600;
/** The expand button's column. */
const TOGGLE_WIDTH = 36;
/** Narrowest the name may get in compact mode. */
const NAME_MIN_COMPACT = 120;

/** Columns a spectator looks for first, then the rest: the order columns are added as width allows. */
const PRIORITY: ColumnRole[] = ['gap', 'pace', 'overall', 'bib', 'category', 'flag', 'other', 'split'];

/** How a report lays out at one width. */
export interface ColumnPlan {
  /** Column indexes shown as grid columns, in the report's order. */
  visible: number[];
  /** Column indexes not shown in the row (shown when the row is expanded). */
  hidden: number[];
  /** Column indexes shown small beneath the name (compact rows only). */
  beneath: number[];
  /** Whether rows are compact (two-line name cell). */
  compact: boolean;
  /** CSS grid template of the visible columns (and the expand button when some are hidden). */
  template: string;
  roles: ColumnRole[];
}

/**
 * Lays a report's columns out for the width available (issue 19): the star, rank, name and the
 * finish (or last) time always; then gap and pace; then the other columns by priority while they
 * fit. Below COMPACT_BELOW the bib and category sit beneath the name. What does not fit is shown
 * when the row is expanded, so nothing needs a horizontal scroll.
 */
/**
 * The width a report page's table gets in the default layout, from the viewport's width alone (no
 * layout read): the viewport less the navigation rail (none below 900 px, 300 px pinned open, else
 * 56), the page's padding (12 px a side below 600 px, 24 above) and the table's border. The
 * pre-paint lays its table out with it, and React's table plans its first render with it, so the
 * first screen needs no layout read inside React's commit (issue 28); the table's resize entry
 * corrects it where the page is laid out otherwise.
 */
export function pageTableWidth(viewportWidth: number, pinned: boolean): number {
  const rail = viewportWidth < 900 ? 0 : pinned ? 300 : 56;
  return viewportWidth - rail - (viewportWidth >= 600 ? 48 : 24) - 2;
}

export function planColumns(
  columns: readonly ColumnDef[],
  width: number,
  reached?: ReadonlySet<number>,
  /** Each column's widest value in px (`contentWidths`), by index (null or undefined: none). */
  content: readonly (number | null | undefined)[] = [],
): ColumnPlan {
  const roles = columnRoles(columns);
  // A column as wide as its widest value needs (column-widths.ts, issue 41: "19998" and "+2:18:38"
  // were cut on Boston's row 20,000), never narrower than its role's default.
  const widthOf = (i: number, role: ColumnRole, narrow: boolean) =>
    Math.max(columnWidth(columns[i]!, role, narrow), content[i] ?? 0);
  const compact = width < COMPACT_BELOW;
  const essential = new Set<ColumnRole>(['favorite', 'rank', 'name', 'time']);
  const shown = new Set<number>();
  const beneath: number[] = [];
  let used = TOGGLE_WIDTH;
  roles.forEach((role, i) => {
    if (essential.has(role)) {
      shown.add(i);
      used += role === 'name' && compact ? NAME_MIN_COMPACT : widthOf(i, role, compact);
    } else if (compact && (role === 'bib' || role === 'category')) beneath.push(i);
    // On a phone a gender or category list's overall rank leads the line beneath the name (issue
    // 41: it was only behind the row's details button).
    else if (compact && role === 'overall') beneath.unshift(i);
  });
  // Without a rank column the bib leads (start lists): it is essential there.
  if (!roles.includes('rank')) {
    const bib = roles.indexOf('bib');
    if (bib >= 0 && !shown.has(bib)) {
      shown.add(bib);
      used += widthOf(bib, 'bib', compact);
      beneath.splice(beneath.indexOf(bib), 1);
    }
  }
  if (!compact) {
    // Split columns the field has reached come first, the latest first (issue 27: a race at 30 km
    // shows 20, 25 and 30 km, not always the first three); then the others in course order.
    const order = columns.map((_, i) => i);
    const latest = (i: number) => (roles[i] === 'split' && reached?.has(columns[i]!.FieldIdx) ? -i : 0);
    order.sort((a, b) => latest(a) - latest(b) || a - b);
    for (const role of PRIORITY) {
      order.forEach((i) => {
        const r = roles[i]!;
        if (r !== role || shown.has(i) || columns[i]!.Type === 'spacer') return;
        const w = widthOf(i, r, false);
        if (used + w <= width) {
          shown.add(i);
          used += w;
        }
      });
    }
  }
  const visible = columns.map((_, i) => i).filter((i) => shown.has(i));
  const hidden = columns
    .map((_, i) => i)
    .filter(
      (i) =>
        !shown.has(i) && !beneath.includes(i) && roles[i] !== 'favorite' && columns[i]!.Type !== 'spacer',
    );
  const tracks = visible.map((i) => {
    const w = widthOf(i, roles[i]!, compact);
    if (roles[i] === 'name') return `minmax(${compact ? NAME_MIN_COMPACT : w}px, 3fr)`;
    if (roles[i] === 'other' && columns[i]!.Alignment !== 'Right') return `minmax(${w}px, 1fr)`;
    return `${w}px`;
  });
  if (hidden.length) tracks.push(`${TOGGLE_WIDTH}px`);
  return { visible, hidden, beneath, compact, template: tracks.join(' '), roles };
}

/**
 * FieldIdx of the time columns holding a time in the first rows (rows come furthest first: what
 * the field has reached), comma-separated so that a layout is redone only when it changes.
 */
export function reachedTimes(columns: readonly ColumnDef[], rows: readonly unknown[][]): string {
  const lead = rows.slice(0, 50);
  return columns
    .filter((c) => c.Type === 'time' && lead.some((r) => Number(r[c.FieldIdx]) > 0))
    .map((c) => c.FieldIdx)
    .join(',');
}

/**
 * The small line beneath a phone row's name (report-row.tsx and the pre-paint): bib and category,
 * led by the overall rank of a gender or category list, named by its column ("Overall 24").
 */
export function beneathText(
  plan: Pick<ColumnPlan, 'beneath' | 'roles'>,
  columns: readonly ColumnDef[],
  row: readonly unknown[],
  lng: 'en' | 'fr',
): string {
  return plan.beneath
    .map((i) => {
      const value = row[columns[i]!.FieldIdx];
      const text = value === null || value === undefined ? '' : String(value);
      return text && plan.roles[i] === 'overall' ? `${columns[i]!.Title[lng]} ${text}` : text;
    })
    .filter(Boolean)
    .join(' · ');
}
