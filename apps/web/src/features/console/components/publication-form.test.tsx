import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ConsoleRace, RacePublicationPreview } from '@tempora/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { PublicationForm } from './publication-form.tsx';

const NOW = Date.UTC(2026, 10, 28, 15);
const api = vi.hoisted(() => ({ setRacePublication: vi.fn() }));
vi.mock('../api/races.ts', () => api);
vi.mock('../api/review.ts', () => ({
  publicationPreviewQuery: (raceId: string) => ({
    queryKey: ['preview', raceId],
    queryFn: async (): Promise<RacePublicationPreview> => ({
      raceId,
      timeZone: 'Europe/Brussels',
      nowMs: NOW,
      finishers: 3,
      dnf: 1,
      dns: 2,
      dsq: 0,
      onCourse: 0,
      notStarted: 0,
      anomalies: 2,
    }),
  }),
}));

const race = {
  id: 'crit',
  name: '10 km',
  timeZone: 'Europe/Brussels',
  publication: null,
  corrections: [],
} as unknown as ConsoleRace;

function renderForm(r: ConsoleRace) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PublicationForm race={r} editable />
    </QueryClientProvider>,
  );
}

describe('PublicationForm (issue 31: provisional → official; issue 43: asked first)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('console');
  });

  it('asks first, showing what it publishes in the event’s zone, then publishes', async () => {
    api.setRacePublication.mockResolvedValue(race);
    renderForm(race);
    expect(screen.getByText(/Results are provisional/)).toBeTruthy();
    const field = screen.getByLabelText('Protest window (minutes)');
    await userEvent.clear(field);
    await userEvent.type(field, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Publish as official' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish the results of 10 km as official?' });
    const preview = await within(dialog).findByTestId('publication-preview');
    expect(preview.textContent).toContain('3 finishers');
    expect(preview.textContent).toContain('1 did not finish (DNF)');
    expect(preview.textContent).toContain('2 did not start (DNS)');
    expect(preview.textContent).toContain('2 anomalies of the review still open');
    expect(preview.textContent).toContain('Open to protests for 30 minutes, until 28 Nov 2026, 16:30 CET');
    expect(api.setRacePublication).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish as official' }));
    await waitFor(() =>
      expect(api.setRacePublication).toHaveBeenCalledWith('crit', {
        official: true,
        protestWindowMinutes: 30,
      }),
    );
  });

  it('shows a publication in the event’s zone and re-opens it only with a reason', async () => {
    api.setRacePublication.mockResolvedValue(race);
    renderForm({ ...race, publication: { publishedAtMs: NOW, protestWindowMs: 1_800_000 } });
    expect(screen.getByTestId('publication-state').textContent).toBe(
      'Published as official on 28 Nov 2026, 16:00 CET, open to protests for 30 minutes.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Back to provisional' }));
    const dialog = await screen.findByRole('dialog');
    const reopen = within(dialog).getByRole('button', { name: 'Re-open as provisional' });
    expect((reopen as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(dialog).getByRole('textbox'), 'protest upheld');
    await userEvent.click(reopen);
    await waitFor(() =>
      expect(api.setRacePublication).toHaveBeenLastCalledWith('crit', {
        official: false,
        protestWindowMinutes: 0,
        reason: 'protest upheld',
      }),
    );
  });
});
