import { describe, expect, it } from 'vitest';
import type { Participant, Passing } from '../results/types.ts';
import { publicationStatus, reviewReads } from './review.ts';

const GUN = Date.UTC(2026, 5, 1, 8, 0, 0);
const MIN = 60_000;
const points = [
  { id: 'k5', distanceM: 5000 },
  { id: 'k10', distanceM: 10_000 },
  { id: 'finish', distanceM: 21_097 },
];
const runner = (bib: string, status: Participant['status'] = 'registered'): Participant => ({
  bib,
  firstName: '',
  lastName: bib,
  gender: 'M',
  status,
});
const read = (bib: string, pointId: string, minutes: number, id = `${bib}-${pointId}`): Passing => ({
  id,
  bib,
  pointId,
  timeMs: GUN + minutes * MIN,
  source: 'decoder',
});

// A seeded half marathon with one fault of each kind.
const participants = [
  runner('1'),
  runner('2'),
  runner('3'),
  runner('4'),
  runner('5', 'DNS'),
  runner('6', 'DNF'),
];
const passings = [
  // 1: clean.
  read('1', 'k5', 25),
  read('1', 'k10', 50),
  read('1', 'finish', 105),
  // 2: the 10 km mat missed them.
  read('2', 'k5', 26),
  read('2', 'finish', 110),
  // 3: 5 km → 10 km in 6 minutes: a cut course.
  read('3', 'k5', 27),
  read('3', 'k10', 33),
  read('3', 'finish', 100),
  // 4: read at 10 km before 5 km (a swapped chip, a wrong mat id).
  read('4', 'k5', 52),
  read('4', 'k10', 49),
  read('4', 'finish', 108),
  // 5: DNS but read; 6: DNF with a finish read (and no 10 km read).
  read('5', 'k5', 30),
  read('6', 'k5', 30),
  read('6', 'finish', 120),
];

describe('review before results are official', () => {
  const anomalies = reviewReads(points, participants, passings, {
    fastestPaceMsPerKm: 150_000,
    startOf: () => GUN,
    stoppedAtMs: { '1': GUN + 200 * MIN },
  });

  it('lists each seeded fault once, with the reads behind it', () => {
    expect(anomalies.map((a) => [a.kind, a.bib, a.pointId ?? null])).toEqual([
      ['missingRead', '2', 'k10'],
      ['tooFast', '3', 'k10'],
      ['outOfOrder', '4', 'k10'],
      ['readAfterStop', '5', null],
      ['readAfterStop', '6', 'finish'],
      ['missingRead', '6', 'k10'],
    ]);
    const byKind = Object.fromEntries(anomalies.map((a) => [`${a.kind}-${a.bib}`, a]));
    expect(byKind['missingRead-2']!.reads.map((r) => r.id)).toEqual(['2-k5', '2-finish']);
    expect(byKind['tooFast-3']!.reads.map((r) => r.id)).toEqual(['3-k5', '3-k10']);
    expect(byKind['tooFast-3']!.paceMsPerKm).toBe(72_000);
    expect(byKind['outOfOrder-4']!.reads.map((r) => r.id)).toEqual(['4-k5', '4-k10']);
    expect(byKind['readAfterStop-5']!.reads.map((r) => r.id)).toEqual(['5-k5']);
  });

  it('forgets an anomaly once the desk corrects the read (deleted), whatever the order', () => {
    const fixed = reviewReads(
      points,
      participants,
      [{ ...read('3', 'k10', 33), deleted: true }, ...passings],
      { fastestPaceMsPerKm: 150_000, startOf: () => GUN },
    );
    expect(fixed.some((a) => a.bib === '3' && a.kind === 'tooFast')).toBe(false);
  });

  it('marks results provisional until published, then open to protests, then official', () => {
    expect(publicationStatus({}, GUN)).toEqual({ state: 'provisional' });
    const published = { publishedAtMs: GUN + 180 * MIN, protestWindowMs: 30 * MIN };
    expect(publicationStatus(published, GUN + 179 * MIN).state).toBe('provisional');
    expect(publicationStatus(published, GUN + 190 * MIN)).toEqual({
      state: 'protestOpen',
      protestEndsMs: GUN + 210 * MIN,
    });
    expect(publicationStatus(published, GUN + 210 * MIN).state).toBe('official');
    expect(publicationStatus({ publishedAtMs: GUN }, GUN).state).toBe('official');
  });
});
