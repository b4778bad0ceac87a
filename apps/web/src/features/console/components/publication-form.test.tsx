import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { PublicationForm } from './publication-form.tsx';

const api = vi.hoisted(() => ({ setRacePublication: vi.fn() }));
vi.mock('../api/races.ts', () => api);

const race = { id: 'crit', timeZone: 'Europe/Brussels', publication: null } as unknown as ConsoleRace;

function renderForm(r: ConsoleRace) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PublicationForm race={r} editable />
    </QueryClientProvider>,
  );
}

describe('PublicationForm (issue 31: provisional → official)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('console');
  });

  it('publishes as official with a protest window', async () => {
    api.setRacePublication.mockResolvedValue(race);
    renderForm(race);
    expect(screen.getByText(/Results are provisional/)).toBeTruthy();
    const field = screen.getByLabelText('Protest window (minutes)');
    await userEvent.clear(field);
    await userEvent.type(field, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Publish as official' }));
    await waitFor(() =>
      expect(api.setRacePublication).toHaveBeenCalledWith('crit', {
        official: true,
        protestWindowMinutes: 30,
      }),
    );
  });

  it('shows a publication and takes it back', async () => {
    api.setRacePublication.mockResolvedValue(race);
    renderForm({
      ...race,
      publication: { publishedAtMs: Date.UTC(2026, 10, 28, 15), protestWindowMs: 1_800_000 },
    });
    expect(screen.getByText(/open to protests for 30 minutes/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back to provisional' }));
    await waitFor(() =>
      expect(api.setRacePublication).toHaveBeenLastCalledWith('crit', {
        official: false,
        protestWindowMinutes: 0,
      }),
    );
  });
});
