import type { StaffEntry } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadLanguage } from '../../../lib/i18n.ts';

const entry = (invoice: string | null): StaffEntry => ({
  code: 'E00000000000000000001',
  raceId: 'r10',
  raceName: '10 km',
  state: invoice ? 'confirmed' : 'held',
  source: 'online',
  firstName: 'Ada',
  lastName: 'Runner',
  email: 'ada@example.test',
  gender: 'F',
  birthDate: '1990-05-01',
  bib: null,
  participantId: null,
  orderId: '42',
  orderState: invoice ? 'paid' : 'awaiting_payment',
  invoice,
  totalCents: 2500,
  discountCode: null,
  addOns: [],
  answers: {},
  waiverVersion: 1,
  waiverAcceptedAt: null,
  createdAt: '2026-05-01T10:00:00.000Z',
});

let shown = entry('000012');
const downloadInvoice = vi.fn(async (_orderId: string) => undefined);
vi.mock('../api/entries.ts', async (original) => ({
  ...(await original<object>()),
  downloadInvoice: (orderId: string) => downloadInvoice(orderId),
  useStaffEntry: () => ({ data: { entry: shown, history: [] } }),
  useStaffEntries: () => ({
    data: { entries: [shown], questions: [], perDay: [], races: [] },
  }),
  useReleasePlaces: () => ({ mutate: vi.fn(), isPending: false }),
}));

const { HistoryDialog, StaffList } = await import('./staff-list.tsx');

/**
 * Issue 38: the organiser's entry page and entries list show the entry's order's invoice, a link
 * named by its number that downloads the PDF; none before the order is paid. Both languages.
 */
describe('console entries: the invoice of a paid entry', () => {
  beforeAll(async () => {
    initI18n('fr');
    await loadLanguage('fr', { all: true });
    await loadLanguage('en', { all: true });
  });

  it('the entry page links the invoice PDF by its number, in French and English', async () => {
    for (const [lng, name] of [
      ['fr', 'Facture 000012 (PDF)'],
      ['en', 'Invoice 000012 (PDF)'],
    ] as const) {
      await i18next.changeLanguage(lng);
      shown = entry('000012');
      downloadInvoice.mockClear();
      const { unmount } = render(
        <HistoryDialog eventId="demo" code={shown.code} onClose={() => undefined} />,
      );
      const link = screen.getByRole('button', { name });
      await userEvent.click(link);
      expect(downloadInvoice).toHaveBeenCalledWith('42');
      unmount();
    }
  });

  it('says there is none before the order is paid, and none for an entry with nothing to pay', async () => {
    for (const [lng, unpaid, comped] of [
      ['en', 'Invoice: none yet (issued when the order is paid)', 'Invoice: none (nothing to pay)'],
      [
        'fr',
        'Facture : aucune pour l’instant (émise au paiement de la commande)',
        'Facture : aucune (rien à payer)',
      ],
    ] as const) {
      await i18next.changeLanguage(lng);
      shown = entry(null);
      const first = render(<HistoryDialog eventId="demo" code={shown.code} onClose={() => undefined} />);
      expect(screen.getByTestId('staff-entry-invoice').textContent).toBe(unpaid);
      expect(screen.queryByRole('button', { name: /000012/ })).toBeNull();
      first.unmount();
      shown = { ...entry(null), orderId: null, orderState: null };
      const second = render(<HistoryDialog eventId="demo" code={shown.code} onClose={() => undefined} />);
      expect(screen.getByTestId('staff-entry-invoice').textContent).toBe(comped);
      second.unmount();
    }
  });

  it('the list has an invoice column whose link is named for the invoice', async () => {
    await i18next.changeLanguage('fr');
    shown = entry('000012');
    downloadInvoice.mockClear();
    const { unmount } = render(<StaffList eventId="demo" currency="EUR" />);
    const table = screen.getByRole('table', { name: 'Inscriptions' });
    expect(within(table).getByRole('columnheader', { name: 'Facture' })).toBeTruthy();
    const link = within(table).getByRole('button', { name: 'Facture 000012 (PDF)' });
    expect(link.textContent).toBe('000012');
    await userEvent.click(link);
    expect(downloadInvoice).toHaveBeenCalledWith('42');
    unmount();
  });
});
