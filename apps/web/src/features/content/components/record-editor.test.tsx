import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { initI18n } from '../../../lib/i18n.ts';
import { RecordEditor } from './record-editor.tsx';

describe('RecordEditor on the shared FormDialog', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('content');
  });

  it('marks the fields the server refused, then saves', async () => {
    const save = vi
      .fn()
      .mockRejectedValueOnce(
        new ApiError(400, 'VALIDATION_FAILED', 'Invalid', { email: ['Invalid e-mail.'] }),
      )
      .mockResolvedValueOnce({});
    const onSaved = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RecordEditor
          title="Contact"
          fields={[
            { name: 'name', label: 'Name', required: true },
            { name: 'email', label: 'E-mail', type: 'email' },
          ]}
          initial={{ name: 'Lena', email: 'nope' }}
          save={save}
          onClose={() => {}}
          onSaved={onSaved}
        />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('dialog', { name: 'Contact' })).toBeTruthy();
    expect(i18next.t('content:form.failed')).not.toBe('form.failed');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(i18next.t('content:form.failed'));
    expect(screen.getByText(i18next.t('content:form.invalid'))).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(save).toHaveBeenLastCalledWith({ name: 'Lena', email: 'nope' });
  }, 120_000);
});
