import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RaceSummary } from '@tempora/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { BulkEditDialog } from './bulk-edit-dialog.tsx';

const api = vi.hoisted(() => ({ apiRequest: vi.fn() }));
vi.mock('../../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/api-client.ts')>()),
  apiRequest: api.apiRequest,
}));

const races = [
  { id: 'ten', name: '10 km', categories: [{ id: 'SEN', name: 'Seniors' }] },
  { id: 'five', name: '5 km', categories: [] },
] as unknown as RaceSummary[];

describe('BulkEditDialog (issue 29)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('participants');
  });

  it('sends only the chosen fields in one request and lists the refused runners with why', async () => {
    api.apiRequest.mockResolvedValue({
      updated: 1,
      unchanged: 0,
      refused: [{ id: 'b', name: 'Cleo Colin', bib: '3', code: 'BIB_TAKEN', message: 'taken' }],
    });
    const onSaved = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <BulkEditDialog eventId="e" ids={['a', 'b']} races={races} onClose={() => {}} onSaved={onSaved} />
      </QueryClientProvider>,
    );
    const apply = screen.getByRole('button', { name: 'Apply to 2 runners' });
    expect((apply as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('combobox', { name: 'Race' }));
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: '5 km' }));
    await userEvent.click(apply);
    await waitFor(() =>
      expect(api.apiRequest).toHaveBeenCalledWith('apiUrlBase', 'console/events/e/participants/bulk', {
        method: 'POST',
        body: { ids: ['a', 'b'], patch: { raceId: 'five' } },
      }),
    );
    expect((await screen.findByRole('status')).textContent).toContain('1 runner changed.');
    const refused = screen.getByRole('list', { name: 'Refused runners' });
    expect(refused.textContent).toContain('3 · Cleo Colin');
    expect(refused.textContent).toContain('Their bib is already taken in that race.');
    expect(onSaved).toHaveBeenCalledTimes(1);
  }, 120_000);
});
