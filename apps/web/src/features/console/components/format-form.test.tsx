import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { FormatForm } from './format-form.tsx';

const api = vi.hoisted(() => ({ setRaceFormat: vi.fn() }));
vi.mock('../api/races.ts', () => api);

const point = (key: string, en: string, fr: string) => ({
  key,
  name: { en, fr },
  distanceM: 0,
  kind: 'split',
  lat: null,
  lon: null,
});
const race = {
  id: 'tri',
  format: { kind: 'road' },
  points: [
    point('start', 'Start', 'Départ'),
    point('t1', 'Swim exit', 'Sortie de l’eau'),
    point('t2', 'Bike in', 'Arrivée vélo'),
    point('finish', 'Finish', 'Arrivée'),
  ],
} as unknown as ConsoleRace;

function renderForm(r: ConsoleRace) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FormatForm race={r} editable />
    </QueryClientProvider>,
  );
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

describe('FormatForm (issue 31: the race format in the console)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('console');
  });

  it('sets a 24 h race on the finish mat with its limit', async () => {
    api.setRaceFormat.mockResolvedValue(race);
    renderForm(race);
    await choose('Format', 'Time-limited (6, 12, 24 h)');
    expect(screen.getByText(/ranked by distance/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Lap length'), '1500');
    await userEvent.click(screen.getByRole('button', { name: 'Save the format' }));
    await waitFor(() =>
      expect(api.setRaceFormat).toHaveBeenCalledWith('tri', {
        kind: 'timeLimited',
        lapPointKey: 'finish',
        minLapS: 60,
        lapLengthM: 1500,
        limitMinutes: 1440,
        partialLap: 'measured',
      }),
    );
  });

  it('sets a criterium with a lap cut-off: lap 10 within 30 minutes of the start, as over time', async () => {
    api.setRaceFormat.mockResolvedValue(race);
    renderForm(race);
    await choose('Format', 'Laps (criterium, track)');
    await userEvent.type(screen.getByLabelText('Laps'), '20');
    const cutoff = screen.getByRole('group', { name: 'Lap cut-off (optional)' });
    await userEvent.type(within(cutoff).getByLabelText('Lap to complete'), '10');
    await userEvent.type(within(cutoff).getByLabelText('Cut-off from own start'), '30');
    await userEvent.click(within(cutoff).getByRole('combobox', { name: 'Past a cut-off' }));
    await userEvent.click(
      within(screen.getByRole('listbox')).getByRole('option', { name: 'Listed as over time' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save the format' }));
    await waitFor(() =>
      expect(api.setRaceFormat).toHaveBeenLastCalledWith('tri', {
        kind: 'laps',
        lapPointKey: 'finish',
        minLapS: 60,
        targetLaps: 20,
        lapCutoffs: [{ laps: 10, elapsedMinutes: 30, outcome: 'overTime' }],
      }),
    );
  });

  it('makes one multisport leg per point after the start, named after it', async () => {
    api.setRaceFormat.mockResolvedValue(race);
    renderForm(race);
    await choose('Format', 'Multisport (triathlon, duathlon…)');
    expect(screen.getByText('Leg 2: to Bike in')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save the format' }));
    await waitFor(() =>
      expect(api.setRaceFormat).toHaveBeenLastCalledWith('tri', {
        kind: 'multisport',
        legs: race.points.slice(1).map((p) => ({ pointKey: p.key, kind: 'discipline', name: p.name })),
      }),
    );
  });

  it('sets a cut-off at the end of a leg, after the gun and from the own start, as over time', async () => {
    api.setRaceFormat.mockResolvedValue(race);
    renderForm(race);
    await choose('Format', 'Relay');
    const gun = screen.getAllByLabelText('Cut-off after the gun');
    const own = screen.getAllByLabelText('Cut-off from own start');
    expect(gun).toHaveLength(3);
    await userEvent.type(gun[0]!, '45');
    await userEvent.type(own[1]!, '120');
    await choose('Past a cut-off', 'Listed as over time');
    await userEvent.click(screen.getByRole('button', { name: 'Save the format' }));
    await waitFor(() =>
      expect(api.setRaceFormat).toHaveBeenLastCalledWith('tri', {
        kind: 'relay',
        legs: race.points.slice(1).map((p) => ({ pointKey: p.key, name: p.name })),
        cutoffs: [
          { pointKey: 't1', afterGunMinutes: 45, outcome: 'overTime' },
          { pointKey: 't2', elapsedMinutes: 120, outcome: 'overTime' },
        ],
      }),
    );
  });

  it('says on the legs why a relay cannot be saved, with the way out (issue 43)', async () => {
    const short = { ...race, points: [race.points[0], race.points[3]] } as unknown as ConsoleRace;
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <FormatForm race={short} editable />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('legs-needed')).toBeNull();
    await choose('Format', 'Relay');
    const why = screen.getByTestId('legs-needed');
    expect(why.textContent).toContain('A relay needs at least two legs, and this race has 1');
    expect(within(why).getByRole('link', { name: 'Add timing points' }).getAttribute('href')).toBe(
      '/#race-points',
    );
  });

  it('speaks French', async () => {
    await i18next.changeLanguage('fr');
    renderForm({
      ...race,
      format: {
        kind: 'backyard',
        lapPointKey: 'finish',
        minLapS: 600,
        lapLengthM: 6706,
        intervalMinutes: 60,
      },
    });
    expect(screen.getByText(/le dernier en course gagne/)).toBeTruthy();
    expect(screen.getByLabelText('Intervalle entre départs')).toHaveProperty('value', '60');
    await i18next.changeLanguage('en');
  });
});
