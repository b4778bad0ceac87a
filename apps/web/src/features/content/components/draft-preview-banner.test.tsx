import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { DraftPreviewBanner } from './draft-preview-banner.tsx';

const api = vi.hoisted(() => ({ apiGet: vi.fn() }));
vi.mock('../../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../../lib/api-client.ts')>()),
  apiGet: api.apiGet,
}));

function renderAt(path: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <DraftPreviewBanner />
        <p>page</p>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('DraftPreviewBanner (issue 29)', () => {
  beforeAll(async () => {
    initI18n('fr');
    await i18next.loadNamespaces('common');
  });

  it('tells an organiser previewing a draft that it is not published, with the way back', async () => {
    api.apiGet.mockResolvedValue({ id: 'namur', draft: true });
    renderAt('/events/namur/home');
    const banner = await screen.findByTestId('draft-preview-banner');
    expect(banner.textContent).toContain('Aperçu — non publié.');
    expect(screen.getByRole('link', { name: 'Retour à la console' }).getAttribute('href')).toBe(
      '/console/events/namur',
    );
    expect(api.apiGet).toHaveBeenCalledWith('eventsApiUrlBase', 'events/namur', expect.anything());
  });

  it('shows nothing on a published event, nor outside the event pages', async () => {
    api.apiGet.mockResolvedValue({ id: 'demo' });
    renderAt('/results/demo/reportlist');
    await screen.findByText('page');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('draft-preview-banner')).toBeNull();
    api.apiGet.mockClear();
    renderAt('/console');
    expect(api.apiGet).not.toHaveBeenCalled();
  });
});
