import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n.ts';
import { RegisterPage } from './auth-pages.tsx';

const api = vi.hoisted(() => ({ apiPost: vi.fn() }));
vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  apiPost: api.apiPost,
}));
vi.mock('../../lib/auth/auth-context.tsx', () => ({ useAuth: () => ({}) }));

describe('RegisterPage (issue 29: a sign-up submit is never silent)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('auth');
  });

  it('says so in an alert when the fields are empty, and sends nothing', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <RegisterPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Some fields are not valid.');
    expect(api.apiPost).not.toHaveBeenCalled();
  });

  it('signs up with the typed e-mail and password', async () => {
    api.apiPost.mockResolvedValue({});
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <RegisterPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.type(screen.getByLabelText(/E-mail/), 'ada@example.org');
    await userEvent.type(screen.getByLabelText(/Password/), 'a long password here');
    await userEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    await waitFor(() =>
      expect(api.apiPost).toHaveBeenCalledWith(
        'userApiUrlBase',
        'auth/sign-up',
        { email: 'ada@example.org', password: 'a long password here', lng: 'en' },
        { anonymous: true },
      ),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
