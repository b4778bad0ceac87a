import { describe, expect, it } from 'vitest';
import { clockMs, fixtureText, publishedRank } from '../../test/fixtures.ts';
import { readCsv } from '../../test/read-csv.ts';
import type { Passing } from '../results/types.ts';
import { computeRelay, type RelayDefinition, type RelayTeam } from './relay.ts';

// Devil's Burdens 2024 (fixtures/README.md): 112 teams, 4 legs, mass starts for legs 3 and 4,
// six legs started on their own by the desk. The reads at each exchange are rebuilt from the
// published leg times and the way each leg started.
const table = readCsv(fixtureText('devils-burdens-2024.csv'));
const rows = table.rows.map((cells) => Object.fromEntries(table.header.map((h, k) => [h, cells[k] ?? ''])));
const GUN = Date.UTC(2024, 0, 27, 10, 0, 0);
const MASS = [undefined, undefined, GUN + clockMs('2:42:33')!, GUN + clockMs('3:34:50')!];
/** `bib/leg/elapsed` of the race's configuration: legs the desk started individually. */
const DESK = ['36/2/1:27:45', '4/3/2:49:20', '26/3/2:46:45', '39/3/2:52:10', '92/3/2:43:24', '112/3/2:43:20'];
/**
 * Team 85 (DNF on leg 2, its third leg off with the leg-3 mass start) came in from leg 3 at
 * 3:59:01, after the leg-4 mass start, yet the list times its fourth leg from that handover and
 * does not mark it mass-started: a decision of the desk, given to the engine as one.
 */
DESK.push('85/4/3:59:01');
const desk = new Map<string, Record<number, number>>();
for (const d of DESK) {
  const [bib, leg, at] = d.split('/');
  desk.set(bib!, { ...desk.get(bib!), [Number(leg) - 1]: GUN + clockMs(at)! });
}
const POINTS = ['x1', 'x2', 'x3', 'finish'];
const race: RelayDefinition = {
  date: '2024-01-27',
  categories: [...new Set(rows.map((r) => r.category!))].map((c) => ({ id: c, name: c })),
  startMs: GUN,
  legs: POINTS.map((point, k) => ({
    id: `leg${k + 1}`,
    name: `Leg ${k + 1}`,
    endPointId: point,
    massStartMs: MASS[k],
  })),
};
const teams: RelayTeam[] = rows.map((r) => ({
  bib: r.bib!,
  name: r.team!,
  gender: 'X',
  category: r.category,
  status: r.pos === '-' ? 'DNF' : 'registered',
  members: POINTS.map((_, k) => ({ leg: k, name: `${r.bib} leg ${k + 1}` })),
  legStarts: desk.get(r.bib!),
}));
/** How the published list says each leg started: its starts and the reads they lead to. */
const published = rows.map((r) => {
  const starts: (number | undefined)[] = [];
  const passings: Passing[] = [];
  let prevEnd: number | undefined = GUN;
  POINTS.forEach((point, k) => {
    const own = desk.get(r.bib!)?.[k];
    const start = own ?? (r[`leg${k + 1}Start`] === 'mass' || prevEnd === undefined ? MASS[k] : prevEnd);
    starts.push(start);
    const leg = clockMs(r[`leg${k + 1}`]);
    prevEnd = start !== undefined && leg !== undefined ? start + leg : undefined;
    if (prevEnd !== undefined)
      passings.push({
        id: `${r.bib}-${point}`,
        bib: r.bib!,
        pointId: point,
        timeMs: prevEnd,
        source: 'import',
      });
  });
  return { starts, passings };
});
const results = computeRelay(
  race,
  teams,
  published.flatMap((p) => p.passings),
);

describe("relay engine on Devil's Burdens 2024", () => {
  it('starts each leg as the list says: handover, mass start (late teams) or the desk', () => {
    const differ: string[] = [];
    rows.forEach((r, i) => {
      results.rows[i]!.legs.forEach((leg, k) => {
        const start = published[i]!.starts[k];
        if (clockMs(r[`leg${k + 1}`]) !== undefined && leg.startMs !== start)
          differ.push(`${r.bib} leg ${k + 1}`);
      });
    });
    expect(differ).toEqual([]);
    // Every leg the list marks as mass-started, and team 85's third leg (its second never ended).
    const started = results.rows.flatMap((r) => r.legs.map((l) => l.startedBy));
    expect(started.filter((s) => s === 'massStart').length).toBe(
      rows.flatMap((r) => [r.leg3Start, r.leg4Start]).filter((s) => s === 'mass').length + 1,
    );
  });

  it('computes every published leg time and team total, and every untied leg and team rank', () => {
    let legTimes = 0;
    let legRanks = 0;
    const mismatches: string[] = [];
    POINTS.forEach((_, k) => {
      const key = `leg${k + 1}`;
      const counts = new Map<number, number>();
      for (const r of rows) {
        const t = clockMs(r[key]);
        if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      rows.forEach((r, i) => {
        const t = clockMs(r[key]);
        if (t === undefined) return;
        legTimes++;
        const leg = results.rows[i]!.legs[k]!;
        if (leg.timeMs !== t) mismatches.push(`${r.bib} ${key} time ${leg.timeMs} ≠ ${t}`);
        const { rank, tied } = publishedRank(r[`${key}Rank`]);
        if (rank === undefined || tied || counts.get(t)! > 1) return;
        legRanks++;
        if (leg.rank !== rank) mismatches.push(`${r.bib} ${key} rank ${leg.rank} ≠ ${rank}`);
      });
    });
    const totals = new Map<number, number>();
    for (const r of rows) {
      const t = clockMs(r.total);
      if (t !== undefined) totals.set(t, (totals.get(t) ?? 0) + 1);
    }
    let teamRanks = 0;
    rows.forEach((r, i) => {
      const t = clockMs(r.total);
      const row = results.rows[i]!;
      if (t === undefined) {
        expect(row.totalMs, r.bib).toBeUndefined();
        return;
      }
      if (row.totalMs !== t) mismatches.push(`${r.bib} total ${row.totalMs} ≠ ${t}`);
      if (totals.get(t)! > 1) return;
      teamRanks++;
      if (row.rank !== Number(r.pos)) mismatches.push(`${r.bib} rank ${row.rank} ≠ ${r.pos}`);
    });
    expect(mismatches).toEqual([]);
    expect(legTimes).toBe(4 * 112 - 1);
    expect(legRanks).toBeGreaterThan(380);
    expect(teamRanks).toBeGreaterThan(105);
  });

  it('shows who is on course, and the DNF team takes no team rank', () => {
    const dnf = results.rows.find((r) => r.bib === '85')!;
    expect(dnf.status).toBe('DNF');
    expect(dnf.rank).toBeUndefined();
    // At 2:00:00 the leaders' pairs are on leg 3, the last team still on leg 2.
    const at = GUN + clockMs('2:00:00')!;
    const live = computeRelay(
      race,
      teams.map((t) => ({ ...t, status: 'registered' as const })),
      published.flatMap((p) => p.passings).filter((p) => p.timeMs <= at),
      at,
    );
    const first = live.rows[rows.findIndex((r) => r.pos === '1')]!;
    expect(first.status).toBe('onCourse');
    expect(first.onCourse).toEqual({ leg: 2, members: ['12 leg 3'] });
    const last = live.rows[rows.findIndex((r) => r.pos === '111')]!;
    expect(last.onCourse?.leg).toBe(1);
  });
});
