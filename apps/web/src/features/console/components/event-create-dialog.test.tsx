import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { initI18n } from '../../../lib/i18n.ts';
import { EventCreateDialog } from './event-create-dialog.tsx';

const api = vi.hoisted(() => ({ apiPost: vi.fn() }));
vi.mock('../../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/api-client.ts')>()),
  apiPost: api.apiPost,
}));

function open(onCreated = vi.fn(), onClose = vi.fn(), country?: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EventCreateDialog orgId="org" country={country} onClose={onClose} onCreated={onCreated} />
    </QueryClientProvider>,
  );
  return { onCreated, onClose };
}

describe('EventCreateDialog on the shared FormDialog', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('console');
  });

  it('shows a refused save as the console’s message and the field’s error, then creates', async () => {
    api.apiPost.mockRejectedValueOnce(
      new ApiError(400, 'VALIDATION_FAILED', 'Invalid', { name: ['Required.'] }),
    );
    const { onCreated } = open();
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    expect(dialog).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create the event' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Some fields need correcting (see below).');
    expect(screen.getByText('Required.')).toBeTruthy();

    api.apiPost.mockResolvedValueOnce({ id: 'e1' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Spa{Enter}');
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ id: 'e1' }));
    expect(api.apiPost).toHaveBeenLastCalledWith(
      'apiUrlBase',
      'console/organisations/org/events',
      expect.objectContaining({ name: 'Spa', context: true }),
    );
  }, 120_000);

  it('closes on Cancel', async () => {
    const { onClose } = open();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  }, 120_000);

  it("takes the organisation's country's zone and names it; asks when the country has several (issue 43)", async () => {
    open(vi.fn(), vi.fn(), 'BE');
    const zone = screen.getByRole('combobox', { name: /Time zone/ }) as HTMLInputElement;
    expect(zone.value).toBe('Europe/Brussels');
    expect(screen.getByText(/typed and shown in Europe\/Brussels \((CET|CEST)\)/)).toBeTruthy();
  }, 60_000);

  it('leaves the zone to choose for a country with several, saying so', async () => {
    open(vi.fn(), vi.fn(), 'US');
    const zone = screen.getByRole('combobox', { name: /Time zone/ }) as HTMLInputElement;
    expect(zone.value).toBe('');
    expect(screen.getByText("United States has several time zones: choose the event's")).toBeTruthy();
    await userEvent.click(zone);
    // The country's zones come first.
    const first = (await screen.findAllByRole('option'))[0]!;
    expect(first.textContent).toMatch(/^America\/|^Pacific\/Honolulu$/);
  }, 60_000);
});
