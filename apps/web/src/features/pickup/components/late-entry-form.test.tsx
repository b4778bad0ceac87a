import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadLanguage } from '../../../lib/i18n.ts';
import type { PickupList } from '../api/pickup.ts';
import { LateEntryForm } from './late-entry-form.tsx';

const list: PickupList = {
  event: { id: 'demo', name: 'Demo', timeZone: 'Europe/Brussels', lang: 'fr' },
  races: [{ id: 'r10', name: '10 km', firstBib: 1, lastBib: 99, started: false, lateEntries: true }],
  addOns: [],
  currency: 'EUR',
  runners: [],
  at: '2027-05-01T08:00:00.000Z',
};

/**
 * Issue 38: the kiosk's late entry types the birth date in the page's language (day first, the
 * numeric keypad), not in Chromium's date picker drawn in the browser's locale (mm/dd/yyyy).
 */
describe('pickup late entry: the birth date', () => {
  beforeAll(async () => {
    initI18n('fr');
    await loadLanguage('fr', { all: true });
    await loadLanguage('en', { all: true });
  });

  it('is typed day first in French and English and sent as YYYY-MM-DD', async () => {
    for (const [lng, label, pattern] of [
      ['fr', 'Date de naissance', 'jj/mm/aaaa'],
      ['en', 'Birth date', 'dd/mm/yyyy'],
    ] as const) {
      await i18next.changeLanguage(lng);
      const add = vi.fn(async () => undefined);
      const { unmount } = render(<LateEntryForm list={list} add={add as never} answer={undefined} />);
      const field = screen.getByLabelText(new RegExp(label)) as HTMLInputElement;
      expect(field.type).toBe('text');
      expect(field.placeholder).toBe(pattern);
      expect(field.inputMode).toBe('numeric');
      await userEvent.type(field, '01051990');
      expect(field.value).toBe('01/05/1990');
      await userEvent.type(
        screen.getByLabelText(new RegExp(lng === 'fr' ? '^Prénom' : '^First name')),
        'Ana',
      );
      await userEvent.type(screen.getByLabelText(new RegExp(lng === 'fr' ? '^Nom' : '^Last name')), 'Test');
      await userEvent.type(screen.getByLabelText(/e-mail/i), 'ana@example.test');
      await userEvent.click(screen.getByRole('button', { name: lng === 'fr' ? /Inscrire/ : /Enter/ }));
      expect(add).toHaveBeenCalledWith(
        expect.objectContaining({ runner: expect.objectContaining({ birthDate: '1990-05-01' }) }),
      );
      unmount();
    }
  });
});
