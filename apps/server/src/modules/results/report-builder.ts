import type { ColumnDef, Localized } from '@tempora/contracts';
import {
  compareBibs,
  formatPace,
  GENDERS,
  gapAt,
  gunTimeOf,
  lastPointOf,
  type Millis,
  netTimeOf,
  type RaceResults,
  type RankScope,
  rankAt,
  rankingOrder,
  rankKeyOf,
  ranksAt,
  shownGap,
  statusOf,
  wallClock,
} from '@tempora/domain';
import type { ParticipantRow, ReportDefinition } from './repository.ts';

/**
 * Turns engine results into the spec's report tables (§3: column definitions + rows as arrays
 * indexed by field). Ranking rows have fixed fields (below) followed by one net time per timing
 * point; the columns pick and format them. Times are milliseconds (0 = blank, spec §5).
 */
export const F = {
  key: 0,
  order: 1,
  rank: 2,
  bib: 3,
  name: 4,
  nationality: 5,
  club: 6,
  category: 7,
  rankGender: 8,
  rankCategory: 9,
  time: 10,
  gunTime: 11,
  pace: 12,
  gap: 13,
  status: 14,
  url: 15,
  favorite: 16,
  lastPoint: 17,
  /** The overall rank, shown beside a gender or category list's own rank (issue 27). */
  rankOverall: 18,
  /** Where a running time was taken: the last point's name while on course, blank once finished. */
  at: 19,
  firstSplit: 20,
} as const;

const L = (en: string, fr: string): Localized => ({ en, fr });

function column(
  field: number,
  title: Localized,
  type: ColumnDef['Type'],
  options: Partial<Omit<ColumnDef, 'FieldIdx' | 'Title' | 'Type'>> = {},
): ColumnDef {
  return {
    FieldIdx: field,
    Colspan: 1,
    Bold: false,
    Italic: false,
    Alignment: 'Left',
    UrlColumnIdx: -1,
    Settings: {},
    Title: title,
    Type: type,
    ...options,
  };
}

/** What a report builder needs to know about a race. */
export interface RaceView {
  eventId: string;
  /** The event's IANA time zone (times of day); Europe/Brussels when unknown. */
  timeZone?: string;
  /** The race's gun and clock rate: a replay's reads are shown on the wall clock (never ahead of it). */
  row?: { gunTimeMs: number | null; clockRate: number };
  results: RaceResults;
  participants: readonly ParticipantRow[];
  pointNames: readonly string[];
  /** The same in French (column titles; a row's last point stays in `pointNames`, one per row). */
  pointNamesFr?: readonly string[];
}

/** English point name → French, where they differ (a `points` column's `Settings.Names`). */
function frenchPointNames(view: Pick<RaceView, 'pointNames' | 'pointNamesFr'>): Record<string, string> {
  const names: Record<string, string> = {};
  view.pointNames.forEach((name, p) => {
    const fr = view.pointNamesFr?.[p];
    if (fr && fr !== name) names[name] = fr;
  });
  return names;
}

/** Status buckets for ordering: finishers, then on course (furthest first), not started, DNF, DSQ, DNS. */
const STATUS_BUCKET: Record<string, number> = {
  finished: 0,
  onCourse: 0,
  notStarted: 1,
  DNF: 2,
  DSQ: 3,
  DNS: 4,
};

/** The fields a ranking shows when its definition names none (contracts `defaultReportFields`). */
const DEFAULT_RANKING_FIELDS = [
  'favorite',
  'rank',
  'bib',
  'name',
  'nationality',
  'club',
  'category',
  'rankCategory',
  'splits',
  'time',
  'gap',
  'pace',
];

/**
 * The rank columns of a list: its own rank, then the wider ranks it does not show already (issue
 * 27: in a category list "Rank" is the category rank, so "Cat. rank" beside it would repeat it;
 * the overall and gender ranks are shown instead).
 */
function ranksBeside(fields: readonly string[], scope: RankScope): string[] {
  if (scope === 'overall') return [...fields];
  const wider = scope === 'category' ? ['rankOverall', 'rankGender'] : ['rankOverall'];
  const own = scope === 'category' ? 'rankCategory' : 'rankGender';
  const kept = fields.filter((f) => f !== own && !wider.includes(f));
  const at = kept.indexOf('rank');
  if (at < 0) return kept;
  return [...kept.slice(0, at + 1), ...wider, ...kept.slice(at + 1)];
}

/**
 * Columns of a ranking report: the named engine fields in order (issue 14: an organiser chooses a
 * report's columns), else the default set. `splits` stands for one column per split point.
 */
export function rankingColumns(
  view: RaceView,
  scope: RankScope,
  fields: readonly string[] = DEFAULT_RANKING_FIELDS,
): ColumnDef[] {
  const byName: Record<string, () => ColumnDef[]> = {
    favorite: () => [column(F.favorite, L('Favourite', 'Favori'), 'favorite', { Alignment: 'Center' })],
    rank: () => [
      column(F.rank, L('Rank', 'Place'), 'text', {
        Bold: true,
        Alignment: 'Right',
        // Unranked runners hold their status code here (rankingRow), shown as its label.
        Settings: { Labels: 'status' },
      }),
    ],
    bib: () => [column(F.bib, L('Bib', 'Dossard'), 'text', { Alignment: 'Right' })],
    name: () => [column(F.name, L('Name', 'Nom'), 'text', { Bold: true, UrlColumnIdx: F.url })],
    nationality: () => [column(F.nationality, L('Nat.', 'Nat.'), 'flag', { Alignment: 'Center' })],
    club: () => [column(F.club, L('Club', 'Club'), 'text', { Italic: true })],
    category: () => [column(F.category, L('Category', 'Catégorie'), 'text')],
    rankOverall: () => [column(F.rankOverall, L('Overall', 'Pl. gén.'), 'text', { Alignment: 'Right' })],
    rankGender: () => [column(F.rankGender, L('Gender', 'Pl. sexe'), 'text', { Alignment: 'Right' })],
    rankCategory: () => [column(F.rankCategory, L('Cat. rank', 'Pl. cat.'), 'text', { Alignment: 'Right' })],
    splits: () =>
      view.pointNames
        .slice(0, -1)
        .map((name, p) =>
          column(F.firstSplit + p, L(name, view.pointNamesFr?.[p] ?? name), 'time', { Alignment: 'Right' }),
        ),
    time: () => [
      column(F.time, L('Time', 'Temps'), 'time', {
        Bold: true,
        Alignment: 'Right',
        // Issue 27: a running time says where it was taken (`1:30:11 · 30 km`).
        Settings: { At: F.at, Names: frenchPointNames(view) },
      }),
    ],
    gunTime: () => [column(F.gunTime, L('Gun time', 'Temps officiel'), 'time', { Alignment: 'Right' })],
    // Measured from the list's own leader (listGaps), written by the domain's formatGap (+0:21).
    // Issue 43: a gap says where it was measured, as a running time does (`+2:50 · 7.5 km`: the
    // rows above and below may have been measured at other points).
    gap: () => [
      column(F.gap, L('Gap', 'Écart'), 'time', {
        Alignment: 'Right',
        Settings: { Format: 'gap', At: F.at, Names: frenchPointNames(view) },
      }),
    ],
    pace: () => [column(F.pace, L('Pace', 'Allure'), 'text', { Alignment: 'Right' })],
    status: () => [column(F.status, L('Status', 'Statut'), 'text', { Settings: { Labels: 'status' } })],
    lastPoint: () => [
      column(F.lastPoint, L('Last point', 'Dernier point'), 'text', {
        Settings: { Labels: 'points', Names: frenchPointNames(view) },
      }),
    ],
  };
  return ranksBeside(fields, scope).flatMap((f) => byName[f]?.() ?? []);
}

/** Whether participant i matches a report's filter (every field given must match). */
export function matchesFilter(view: RaceView, filter: ReportDefinition['filter'], i: number): boolean {
  if (!filter) return true;
  const person = view.participants[i]!;
  if (filter.gender !== undefined && GENDERS[view.results.index.genderOf[i]!] !== filter.gender) return false;
  if (filter.category !== undefined) {
    const c = view.results.index.categoryOf[i]!;
    if (c < 0 || view.results.index.race.categories[c]!.id !== filter.category) return false;
  }
  if (filter.club !== undefined && (person.club ?? '').trim().toLowerCase() !== filter.club.toLowerCase())
    return false;
  return filter.wave === undefined || person.wave === filter.wave;
}

type RankOf = (i: number, p: number, scope: 'overall' | 'gender' | 'category') => number;

/** Ranks from full sweeps (a whole table) — one `ranksAt` per point, O(points × n). */
export function sweepRanks(results: RaceResults): RankOf {
  const columns = results.index.race.points.map((_, p) => ranksAt(results, p));
  return (i, p, scope) => columns[p]![scope][i]!;
}

/** Ranks one at a time (a patch of a few rows). */
export function singleRanks(results: RaceResults): RankOf {
  return (i, p, scope) => rankAt(results, i, p, scope) ?? 0;
}

const num = (x: number): number => (Number.isNaN(x) ? 0 : x);

type Ranking = ReportDefinition & { kind: 'ranking' };

/**
 * Whose lead a list's gaps are measured from (issue 27, product.md "Gaps"): its gender or
 * category; an overall list filtered to one gender or category, that group; filtered by club or
 * wave, `list`: its first runner at each point, found among its rows.
 */
export function gapScopeOf(definition: Ranking): RankScope | 'list' {
  if (definition.scope !== 'overall') return definition.scope;
  const filter = definition.filter ?? {};
  if (filter.club !== undefined || filter.wave !== undefined) return 'list';
  if (filter.category !== undefined) return 'category';
  return filter.gender !== undefined ? 'gender' : 'overall';
}

/**
 * Whether a list's rows may be patched one changed runner at a time: not a club or wave list, whose
 * leader's change moves the gaps of runners that did not change.
 */
export function patchesRowByRow(definition: ReportDefinition): boolean {
  return definition.kind !== 'ranking' || gapScopeOf(definition) !== 'list';
}

/** The gap of runner i at ranked point p in a list (from its own leader). */
export type GapOf = (i: number, p: number) => Millis | null;

/** The gaps of a list: from its group's leader, or (club, wave) from its first runner at the point. */
export function listGaps(view: RaceView, definition: Ranking): GapOf {
  const scope = gapScopeOf(definition);
  const { results } = view;
  if (scope !== 'list') return (i, p) => gapAt(results, i, p, scope);
  const leaders = new Map<number, number>();
  const leaderAt = (p: number) => {
    let key = leaders.get(p);
    if (key === undefined) {
      const first = rankingOrder(results, p).find((j) => matchesFilter(view, definition.filter, j));
      key = first === undefined ? Number.NaN : rankKeyOf(results, first, p);
      leaders.set(p, key);
    }
    return key;
  };
  return (i, p) => {
    const overall = gapAt(results, i, p);
    if (overall === null) return null;
    const leader = leaderAt(p);
    return Number.isNaN(leader) ? null : shownGap(rankKeyOf(results, i, p), leader);
  };
}

/** One ranking row of participant i in a list (`gapOf`: listGaps of that list, made once per table). */
export function rankingRow(
  view: RaceView,
  i: number,
  definition: Ranking,
  rankOf: RankOf,
  gapOf: GapOf = listGaps(view, definition),
): unknown[] {
  const scope = definition.scope;
  const { results, participants } = view;
  const person = participants[i]!;
  const status = statusOf(results, i);
  const last = lastPointOf(results, i);
  const pointCount = results.index.pointCount;
  const row: unknown[] = new Array(F.firstSplit + pointCount);
  const ranked = last >= 0 && status !== 'DSQ' && status !== 'DNS';
  const rank = ranked ? rankOf(i, last, scope) : 0;
  const net = last >= 0 ? netTimeOf(results, i, last) : Number.NaN;
  const bucket = STATUS_BUCKET[status] ?? 5;
  // Runners with no passing tie on the order field: compareRows then orders them by bib, numerically.
  const key = last >= 0 ? rankKeyOf(results, i, last) : 0;
  row[F.key] = person.bib;
  row[F.order] = bucket * 1e13 + (pointCount - 1 - last) * 1e10 + num(key);
  row[F.rank] = rank > 0 ? String(rank) : status === 'onCourse' || status === 'finished' ? '' : status;
  row[F.bib] = person.bib;
  row[F.name] = reportName(person);
  row[F.nationality] = person.nationality ?? '';
  row[F.club] = person.club ?? '';
  const c = results.index.categoryOf[i]!;
  row[F.category] = c >= 0 ? results.index.race.categories[c]!.name : '';
  row[F.rankGender] = ranked ? rankOf(i, last, 'gender') || '' : '';
  row[F.rankCategory] = ranked && c >= 0 ? rankOf(i, last, 'category') || '' : '';
  row[F.rankOverall] = ranked ? rankOf(i, last, 'overall') || '' : '';
  row[F.time] = num(net);
  row[F.gunTime] = last >= 0 ? num(gunTimeOf(results, i, last)) : 0;
  row[F.pace] = last >= 0 ? formatPace((net / results.index.distanceM[last]!) * 1000) : '';
  row[F.gap] = last >= 0 ? (gapOf(i, last) ?? 0) : 0;
  row[F.status] = status;
  row[F.url] = `#/events/${encodeURIComponent(view.eventId)}/tracking/${person.trackingKey}`;
  row[F.favorite] = person.bib;
  row[F.lastPoint] = last >= 0 ? view.pointNames[last]! : '';
  row[F.at] = last >= 0 && status !== 'finished' ? view.pointNames[last]! : '';
  for (let p = 0; p < pointCount; p++) row[F.firstSplit + p] = num(netTimeOf(results, i, p));
  return row;
}

/** Whether participant i belongs to a ranking report. */
export function inReport(view: RaceView, definition: ReportDefinition, i: number): boolean {
  if (!matchesFilter(view, definition.filter, i)) return false;
  if (definition.kind !== 'ranking' || !definition.group) return true;
  if (definition.scope === 'gender') return GENDERS[view.results.index.genderOf[i]!] === definition.group;
  if (definition.scope === 'category') {
    const c = view.results.index.categoryOf[i]!;
    return c >= 0 && view.results.index.race.categories[c]!.id === definition.group;
  }
  return true;
}

/** Every row of a ranking report, sorted by the order field. */
export function rankingRows(view: RaceView, definition: ReportDefinition & { kind: 'ranking' }): unknown[][] {
  const rows: unknown[][] = [];
  for (const _ of rankingRowSteps(view, definition, rows));
  return rows;
}

/**
 * `rankingRows` as steps (a few thousand runners each), filling `rows`: a caller may let the
 * event loop in between two (issue 27: 26,000 rows took 130 ms in one go). Sorted at the end.
 */
export function* rankingRowSteps(
  view: RaceView,
  definition: ReportDefinition & { kind: 'ranking' },
  rows: unknown[][],
): Generator<void> {
  const rankOf = sweepRanks(view.results);
  yield;
  const gapOf = listGaps(view, definition);
  yield;
  for (let i = 0; i < view.results.index.n; i++) {
    if (inReport(view, definition, i)) rows.push(rankingRow(view, i, definition, rankOf, gapOf));
    if (i % 2_000 === 1_999) yield;
  }
  rows.sort(compareRows);
}

/** Row order: the order field, then the key (the contract's rule, which clients apply too). */
export function compareRows(a: unknown[], b: unknown[]): number {
  const d = (a[F.order] as number) - (b[F.order] as number);
  // Ties by bib in numeric order (issue 19: 662 before 3829, not after 4664).
  return d !== 0 ? d : compareBibs(String(a[F.key]), String(b[F.key]));
}

/** Start list fields and columns. */
export const S = {
  key: 0,
  order: 1,
  bib: 2,
  name: 3,
  nationality: 4,
  club: 5,
  category: 6,
  url: 7,
  favorite: 8,
};

export function startListColumns(fields?: readonly string[]): ColumnDef[] {
  const all: Record<string, ColumnDef> = {
    favorite: column(S.favorite, L('Favourite', 'Favori'), 'favorite', { Alignment: 'Center' }),
    bib: column(S.bib, L('Bib', 'Dossard'), 'text', { Bold: true, Alignment: 'Right' }),
    name: column(S.name, L('Name', 'Nom'), 'text', { UrlColumnIdx: S.url }),
    nationality: column(S.nationality, L('Nat.', 'Nat.'), 'flag', { Alignment: 'Center' }),
    club: column(S.club, L('Club', 'Club'), 'text', { Italic: true }),
    category: column(S.category, L('Category', 'Catégorie'), 'text'),
  };
  return (fields ?? Object.keys(all)).flatMap((f) => (all[f] ? [all[f]] : []));
}

export function startListRows(view: RaceView, definition?: ReportDefinition): unknown[][] {
  const { participants, results } = view;
  const kept = participants.flatMap((p, i) =>
    definition && !matchesFilter(view, definition.filter, i) ? [] : [[p, i] as const],
  );
  const rows = kept.map(([p, i]) => {
    const c = results.index.categoryOf[i]!;
    const numeric = Number.parseInt(p.bib.replace(/\D+/g, ''), 10);
    return [
      p.bib,
      Number.isNaN(numeric) ? 1e9 + i : numeric * 1e3 + (i % 1000),
      p.bib,
      reportName(p),
      p.nationality ?? '',
      p.club ?? '',
      c >= 0 ? results.index.race.categories[c]!.name : '',
      `#/events/${encodeURIComponent(view.eventId)}/tracking/${p.trackingKey}`,
      p.bib,
    ];
  });
  return rows.sort(compareRows);
}

/** Last passings fields and columns. */
export const P = { key: 0, order: 1, time: 2, point: 3, bib: 4, name: 5, net: 6, url: 7 };

export function lastPassingsColumns(fields?: readonly string[]): ColumnDef[] {
  const all: Record<string, ColumnDef> = {
    time: column(P.time, L('Time of day', 'Heure'), 'text', { Alignment: 'Right' }),
    point: column(P.point, L('Point', 'Point'), 'text'),
    bib: column(P.bib, L('Bib', 'Dossard'), 'text', { Bold: true, Alignment: 'Right' }),
    name: column(P.name, L('Name', 'Nom'), 'text', { UrlColumnIdx: P.url }),
    net: column(P.net, L('Time', 'Temps'), 'time', { Bold: true, Alignment: 'Right' }),
  };
  return (fields ?? Object.keys(all)).flatMap((f) => (all[f] ? [all[f]] : []));
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** A time-of-day formatter in the event's zone (issue 14: every time of day in the event's zone). */
function clock(timeZone = 'Europe/Brussels'): Intl.DateTimeFormat {
  let format = clocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZone,
      hour12: false,
    });
    clocks.set(timeZone, format);
  }
  return format;
}

/** A last-passings row: participant i at ranked point p (seq orders newest first). */
export function passingRow(view: RaceView, seq: number, i: number, p: number, passingId: string): unknown[] {
  const person = view.participants[i]!;
  const at = view.results.at[i * view.results.index.pointCount + p]!;
  return [
    passingId,
    -seq,
    Number.isNaN(at)
      ? ''
      : clock(view.timeZone).format(view.row ? wallClock(view.row.gunTimeMs, view.row.clockRate, at) : at),
    view.pointNames[p] ?? '',
    person.bib,
    reportName(person),
    num(netTimeOf(view.results, i, p)),
    `#/events/${encodeURIComponent(view.eventId)}/tracking/${person.trackingKey}`,
  ];
}

/**
 * A runner's name as the report tables write it: `LAST First` (trimmed: the hidden runner's
 * projection has no last name, issue 40).
 */
function reportName(person: { firstName: string; lastName: string }): string {
  return `${person.lastName.toUpperCase()} ${person.firstName}`.trim();
}
