import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { LegTable as LegTableBody, Published } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import LegsPage from './legs-page.tsx';

type LegTable = Published<LegTableBody>;

const MIN = 60_000;
const GUN = Date.UTC(2026, 10, 29, 8);
const leg = (timeMs: number | null, rank: number | null) => ({ timeMs, rank, genderRank: null });
const tri: LegTable = {
  raceId: 'tri',
  name: 'Olympic',
  format: 'multisport',
  publication: { state: 'official' },
  legs: [
    { key: 'swim', name: { en: 'Swim', fr: 'Natation' }, kind: 'discipline' },
    { key: 't1', name: { en: 'T1', fr: 'T1' }, kind: 'transition' },
    { key: 'bike', name: { en: 'Bike', fr: 'Vélo' }, kind: 'discipline' },
  ],
  rows: [
    {
      rank: 1,
      bib: '2',
      name: 'Ann Swim',
      status: 'finished',
      totalMs: 71 * MIN,
      legs: [leg(11 * MIN, 2), leg(2 * MIN, 1), leg(58 * MIN, 1)],
      currentLeg: null,
      members: [[], [], []],
      onCourse: [],
      cutoff: null,
    },
    {
      rank: null,
      bib: '5',
      name: 'Bob Late',
      status: 'DNF',
      totalMs: null,
      legs: [leg(50 * MIN, 3), leg(null, null), leg(null, null)],
      currentLeg: null,
      members: [[], [], []],
      onCourse: [],
      cutoff: {
        pointKey: 'swim',
        outcome: 'DNF',
        reason: 'late',
        deadlineMs: GUN + 45 * MIN,
        readMs: GUN + 50 * MIN,
        overridden: false,
      },
    },
  ],
};
let current: LegTable = tri;
vi.mock('../../../lib/api-client.ts', () => ({ apiGet: vi.fn(async () => current) }));
vi.mock('../../../features/live/api.ts', () => ({ useLiveRefetch: () => undefined }));

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/legs/ctx/race/tri']}>
        <Routes>
          <Route path="/legs/:db/race/:race" element={<LegsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('LegsPage (issue 31: multisport and relay legs live)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('live');
  });

  it('a triathlon: split columns with leg ranks, the total, a missed cut-off with its reason', async () => {
    current = tri;
    renderPage();
    const grid = await screen.findByRole('table', { name: 'Splits' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Rank', 'Name', 'Swim', 'T1', 'Bike', 'Total']);
    const rows = within(grid).getAllByRole('row');
    const cells = within(rows[1]!).getAllByRole('cell');
    expect(cells[2]!.textContent).toBe('11:00(2)');
    expect(cells[5]!.textContent).toBe('1:11:00');
    expect(within(rows[2]!).getByText('DNF')).toBeTruthy();
    expect(within(rows[2]!).getByText(/Past the Swim cut-off/)).toBeTruthy();
    expect(screen.getByText('Official results')).toBeTruthy();
  });

  it('a relay in French: the team, who is on course, each leg with its runner', async () => {
    current = {
      ...tri,
      format: 'relay',
      name: 'Ekiden',
      publication: { state: 'provisional' },
      legs: [
        { key: 'x1', name: { en: 'Leg 1', fr: 'Relais 1' }, kind: 'leg' },
        { key: 'x2', name: { en: 'Leg 2', fr: 'Relais 2' }, kind: 'leg' },
      ],
      rows: [
        {
          rank: null,
          bib: 'T1',
          name: 'Les Rapides',
          status: 'onCourse',
          totalMs: null,
          legs: [leg(20 * MIN, 1), leg(null, null)],
          currentLeg: 1,
          members: [['Zoé'], ['Yann']],
          onCourse: ['Yann'],
          cutoff: null,
        },
      ],
    };
    await i18next.changeLanguage('fr');
    await i18next.loadNamespaces('live');
    renderPage();
    const grid = await screen.findByRole('table', { name: 'Relais' });
    expect(within(grid).getByRole('columnheader', { name: 'Équipe' })).toBeTruthy();
    expect(within(grid).getByText('Relais 2 en course')).toBeTruthy();
    expect(within(grid).getByRole('columnheader', { name: 'Relais 1' })).toBeTruthy();
    expect(within(grid).getByText('En course : Yann')).toBeTruthy();
    expect(screen.getByText('Résultats provisoires')).toBeTruthy();
    await i18next.changeLanguage('en');
  });
});
