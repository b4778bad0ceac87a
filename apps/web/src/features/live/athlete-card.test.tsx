import type { AthleteCard as Card } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n.ts';
import { AthleteCard } from './athlete-card.tsx';

const point = (key: string, name: string, distanceM: number) => ({
  key,
  name,
  distanceM,
  lat: null,
  lon: null,
});
const split = (pointKey: string, netMs: number, ranks: [number, number, number], gapCategoryMs = 0) => ({
  pointKey,
  timeOfDay: Date.UTC(2017, 3, 17, 14, 0, 0) + netMs,
  gunMs: netMs,
  netMs,
  rankOverall: ranks[0],
  rankGender: ranks[1],
  rankCategory: ranks[2],
  gapMs: 60_000,
  gapCategoryMs,
  paceMsPerKm: netMs / (pointKey === 'finish' ? 42.195 : 21.0975),
});

/** A Boston finisher: Eastern time, so miles. */
const card = {
  eventId: 'boston',
  db: 'boston-2017',
  timeZone: 'America/New_York',
  race: {
    id: 'm',
    name: 'Marathon',
    distanceM: 42_195,
    points: [point('half', 'Half', 21_097.5), point('finish', 'Finish', 42_195)],
  },
  athlete: {
    raceId: 'm',
    bib: '7',
    name: 'Lee, Ann',
    firstName: 'Ann',
    lastName: 'Lee',
    gender: 'F',
    category: 'F40',
    club: '',
    nationality: 'USA',
    status: 'finished',
    trackingKey: 'tk7',
  },
  status: 'finished',
  splits: [split('half', 4_500_000, [40, 9, 2], 1_000), split('finish', 9_000_000, [31, 7, 2], 1_000)],
  prediction: null,
  estimatedDistanceM: null,
} as unknown as Card;

describe('a finisher’s card (issue 43)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('live');
  });

  it('starts with time, places, pace in the event’s unit and the actions', () => {
    render(<AthleteCard card={card} actions={<button type="button">Certificate</button>} />);
    const summary = screen.getByTestId('finish-summary');
    expect(within(summary).getByTestId('finish-time').textContent).toBe('2:30:00');
    const places = within(summary)
      .getAllByTestId('finish-place')
      .map((p) => p.textContent);
    expect(places).toEqual(['Overall31', 'Women7', 'F402']);
    // 9,000 s over 42.195 km is 3:33 /km, 5:43 /mi: Boston reads miles.
    expect(within(summary).getByTestId('finish-pace').textContent).toBe('Pace5:43 /mi');
    expect(within(summary).getByRole('button', { name: 'Certificate' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Pace /mi' })).toBeTruthy();
    // Times of day name their zone.
    expect(screen.getByText(/Last point: Finish in 2:30:00 \(at 12:30:00 EDT\)/)).toBeTruthy();
    // The category's gap says from whom.
    expect(screen.getAllByText('+0:01 behind 1st F40')).toHaveLength(2);
  });

  it('has no summary before the finish', () => {
    const onCourse = { ...card, status: 'onCourse', splits: [card.splits[0]] } as unknown as Card;
    render(<AthleteCard card={onCourse} />);
    expect(screen.queryByTestId('finish-summary')).toBeNull();
  });
});
