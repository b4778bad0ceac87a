import type { MyWaitlist } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadLanguage } from '../../../lib/i18n.ts';

const waitlists: MyWaitlist = [
  {
    id: '2',
    eventId: 'course',
    eventName: 'Foulées 2027',
    raceId: 'course-10k',
    raceName: '10 km',
    state: 'closed',
    position: null,
    invitedUntil: null,
    createdAt: '2027-05-01T10:00:00.000Z',
  },
  {
    id: '1',
    eventId: 'course',
    eventName: 'Foulées 2027',
    raceId: 'course-21k',
    raceName: '21 km',
    state: 'waiting',
    position: 3,
    invitedUntil: null,
    createdAt: '2027-04-01T10:00:00.000Z',
  },
];
vi.mock('../../../features/entries/api/entries.ts', async (original) => ({
  ...(await original<object>()),
  useMyEntries: () => ({ isPending: false, isError: false, data: [] }),
  useMyWaitlists: () => ({ data: waitlists }),
}));

const { default: MyEntriesPage } = await import('./my-entries-page.tsx');

/** Issue 38: My entries lists the runner's waitlist places, a race closed while waiting included. */
describe('My entries: waitlist places', () => {
  beforeAll(async () => {
    initI18n('fr');
    await loadLanguage('fr', { all: true });
    await loadLanguage('en', { all: true });
  });

  it('shows a closed race and a position in line, in French and English', async () => {
    for (const [lng, heading, closed, waiting] of [
      [
        'fr',
        'Listes d’attente',
        'Inscriptions closes : la liste d’attente ne vous donnera pas de place',
        'Sur la liste d’attente : n° 3 dans la file',
      ],
      [
        'en',
        'Waitlists',
        'Entries closed: the waitlist will not give you a place',
        'On the waitlist: number 3 in line',
      ],
    ] as const) {
      await i18next.changeLanguage(lng);
      const { unmount } = render(
        <MemoryRouter>
          <MyEntriesPage />
        </MemoryRouter>,
      );
      expect(screen.getByRole('heading', { name: heading })).toBeTruthy();
      const [first, second] = screen.getAllByTestId('my-waitlist');
      expect(within(first!).getByText('Foulées 2027 — 10 km')).toBeTruthy();
      expect(within(first!).getByText(closed)).toBeTruthy();
      expect(within(second!).getByText(waiting)).toBeTruthy();
      unmount();
    }
  });
});
