import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadLanguage } from '../../../lib/i18n.ts';

const mutateAsync = vi.fn(async () => ({}));
vi.mock('../api/entries.ts', async (original) => ({
  ...(await original<object>()),
  useManualEntry: () => ({ mutateAsync, error: null, isPending: false }),
}));

const { ManualDialog } = await import('./staff-list.tsx');

/**
 * Issue 38: the organiser's manual entry types the birth date in the page's language (day first),
 * not in Chromium's date picker drawn in the browser's locale.
 */
describe('console manual entry: the birth date', () => {
  beforeAll(async () => {
    initI18n('fr');
    await loadLanguage('fr', { all: true });
    await loadLanguage('en', { all: true });
  });

  it('is typed day first in French and English and sent as YYYY-MM-DD', async () => {
    for (const [lng, pattern] of [
      ['fr', 'jj/mm/aaaa'],
      ['en', 'dd/mm/yyyy'],
    ] as const) {
      await i18next.changeLanguage(lng);
      mutateAsync.mockClear();
      const { unmount } = render(
        <ManualDialog
          eventId="demo"
          races={[{ raceId: 'r10', name: '10 km' } as never]}
          onClose={() => undefined}
        />,
      );
      const field = screen.getByPlaceholderText(pattern) as HTMLInputElement;
      expect(field.type).toBe('text');
      expect(field.inputMode).toBe('numeric');
      await userEvent.type(field, '31021990');
      await userEvent.tab();
      // 31 February is not a date: said under the field.
      expect(await screen.findByText(new RegExp(pattern))).toBeTruthy();
      await userEvent.clear(field);
      await userEvent.type(field, '01051990');
      expect(field.value).toBe('01/05/1990');
      await userEvent.click(screen.getByRole('button', { name: i18next.t('entries:staff.save') }));
      expect(mutateAsync).toHaveBeenCalledWith(
        expect.objectContaining({ runner: expect.objectContaining({ birthDate: '1990-05-01' }) }),
      );
      unmount();
    }
  });
});
