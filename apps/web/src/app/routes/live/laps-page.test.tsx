import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { LapTable, Published } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import LapsPage from './laps-page.tsx';

const table: Published<LapTable> = {
  raceId: 'day',
  name: '24 h',
  format: 'timeLimited',
  leaderLaps: 152,
  lapsToGo: null,
  publication: { state: 'provisional' },
  rows: [
    {
      rank: 1,
      bib: '7',
      name: 'Ann Long',
      status: 'onCourse',
      laps: 152,
      lastLapMs: 402_000,
      bestLapMs: 371_500,
      elapsedMs: 20 * 3_600_000,
      distanceM: 152_000,
      projectedDistanceM: 182_400,
      lapsDown: 0,
      cutoff: null,
    },
    {
      rank: 2,
      bib: '9',
      name: 'Bob Steady',
      status: 'onCourse',
      laps: 150,
      lastLapMs: 455_000,
      bestLapMs: 390_000,
      elapsedMs: 20 * 3_600_000,
      distanceM: 150_000,
      projectedDistanceM: 180_000,
      lapsDown: 2,
      cutoff: null,
    },
    {
      rank: null,
      bib: '11',
      name: 'Cid Slow',
      status: 'DNF',
      laps: 40,
      lastLapMs: 900_000,
      bestLapMs: 600_000,
      elapsedMs: 8 * 3_600_000,
      distanceM: 40_000,
      projectedDistanceM: null,
      lapsDown: 112,
      cutoff: {
        lap: 50,
        pointKey: 'lap:50',
        outcome: 'DNF',
        reason: 'notReached',
        deadlineMs: Date.UTC(2026, 10, 28, 20),
        readMs: null,
        overridden: false,
      },
    },
  ],
  chart: [
    { bib: '7', name: 'Ann Long', positions: [2, 1, 1] },
    { bib: '9', name: 'Bob Steady', positions: [1, 2, 2] },
  ],
};
vi.mock('../../../lib/api-client.ts', () => ({ apiGet: vi.fn(async () => table) }));
vi.mock('../../../features/live/api.ts', () => ({ useLiveRefetch: () => undefined }));

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/laps/ctx/race/day']}>
        <Routes>
          <Route path="/laps/:db/race/:race" element={<LapsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('LapsPage (issue 31: a lap race live)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('live');
  });

  it('shows laps, last and best lap, distance and projection, and who is laps down', async () => {
    renderPage();
    const grid = await screen.findByRole('table', { name: 'Laps' });
    const rows = within(grid).getAllByRole('row');
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', 'Ann Long #7', '152', '6:42', '6:11', '152.00', '182.40']);
    expect(within(rows[2]!).getByText('−2 laps')).toBeTruthy();
    expect(screen.getByText('Leader: 152 laps')).toBeTruthy();
    expect(screen.getByText('Provisional results')).toBeTruthy();
  });

  it('says why a rider is out at a lap cut-off, and draws the lap chart with its table', async () => {
    renderPage();
    const grid = await screen.findByRole('table', { name: 'Laps' });
    const cut = within(grid).getAllByRole('row')[3]!;
    expect(within(cut).getByText('DNF')).toBeTruthy();
    expect(within(cut).getByText(/^Lap 50 not done by the cut-off \(/)).toBeTruthy();
    const chart = await screen.findByRole('img', { name: /Lap chart/ });
    expect(chart.querySelectorAll('polyline')).toHaveLength(2);
    const rows = within(screen.getByRole('table', { name: 'Lap chart' })).getAllByRole('row');
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Bob Steady #9', '1', '2', '2']);
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    await i18next.loadNamespaces('live');
    renderPage();
    expect(await screen.findByRole('table', { name: 'Tours' })).toBeTruthy();
    expect(screen.getByText('Meilleur tour')).toBeTruthy();
    expect(screen.getByText('−2 tours')).toBeTruthy();
    expect(screen.getByText('152,00')).toBeTruthy();
    expect(screen.getByText('Résultats provisoires')).toBeTruthy();
    expect(screen.getByText(/^Tour 50 non bouclé avant la barrière horaire/)).toBeTruthy();
    expect(await screen.findByRole('img', { name: /Graphique des tours/ })).toBeTruthy();
    await i18next.changeLanguage('en');
  });
});
