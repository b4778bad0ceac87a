import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ConsoleRace } from '@tempora/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { FadePriorForm } from './fade-prior-form.tsx';

const api = vi.hoisted(() => ({ setFadePrior: vi.fn(), deleteFadePrior: vi.fn() }));
vi.mock('../api/races.ts', () => api);

const race = { id: 'marathon', fadePrior: null } as unknown as ConsoleRace;

function renderForm(r: ConsoleRace) {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <FadePriorForm race={r} editable />
    </QueryClientProvider>,
  );
}

describe('FadePriorForm (issue 19: previous editions for the finish prediction)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('console');
  });

  it('sends an uploaded CSV, or an earlier race by id, and says what predictions start from', async () => {
    api.setFadePrior.mockResolvedValue(race);
    renderForm(race);
    expect(screen.getByText(/general marathon fade model/)).toBeTruthy();
    const csv = 'half,finish\n1:45:00,3:45:00\n';
    await userEvent.upload(
      screen.getByLabelText('Previous edition results (CSV with half and finish times)'),
      new File([csv], 'last-year.csv', { type: 'text/csv' }),
    );
    await waitFor(() => expect(api.setFadePrior).toHaveBeenCalledWith('marathon', { csv }));
    await userEvent.type(screen.getByLabelText("An earlier race's id"), 'marathon-2025');
    await userEvent.click(screen.getByRole('button', { name: 'Use this race' }));
    await waitFor(() =>
      expect(api.setFadePrior).toHaveBeenLastCalledWith('marathon', { fromRaceId: 'marathon-2025' }),
    );
  });

  it('shows a stored edition and goes back to the general model', async () => {
    api.deleteFadePrior.mockResolvedValue(race);
    renderForm({ ...race, fadePrior: { source: 'csv', runners: 1234 } });
    expect(screen.getByText(/previous edition \(CSV file, 1,234 finishers\)/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back to the general model' }));
    await waitFor(() => expect(api.deleteFadePrior).toHaveBeenCalledWith('marathon'));
  });
});
