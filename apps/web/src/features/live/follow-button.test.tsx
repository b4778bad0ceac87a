import type { AthleteCard, ColumnDef } from '@tempora/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ReportCell } from '../results/components/report-cell.tsx';
import { useFavorites } from '../../lib/favorites/use-favorites.ts';
import { FollowButton } from './follow-button.tsx';
import { useFollowed } from './followed.ts';

const card = {
  eventId: 'ev1',
  db: 'ctx',
  timeZone: null,
  athlete: { bib: '150', trackingKey: 'tk150', firstName: 'Ann', lastName: 'Lee' },
} as unknown as AthleteCard;

const star: ColumnDef = {
  FieldIdx: 0,
  Colspan: 1,
  Bold: false,
  Italic: false,
  Alignment: 'Center',
  UrlColumnIdx: -1,
  Settings: {},
  Title: { en: 'Favourite', fr: 'Favori' },
  Type: 'favorite',
};

/** A table row's star, as the report view wires it (useFavorites). */
function Star({ row }: { row: unknown[] }) {
  const { favorites, toggle } = useFavorites('ev1');
  return (
    <ReportCell
      column={star}
      row={row}
      keyField={0}
      favorite={favorites.has(String(row[0]))}
      onToggleFavorite={toggle}
      flagBase=""
    />
  );
}

function Favourites() {
  const { favorites } = useFavorites('ev1');
  const followed = useFollowed();
  return (
    <p data-testid="favourites">
      {[...favorites].join(',')}|{followed.join(',')}
    </p>
  );
}

describe('one follow list: card, table star, favourites, /genericTracking (issue 27)', () => {
  beforeEach(() => localStorage.clear());

  it('follow on the card stars the row; unstar in the table unfollows the card', async () => {
    const user = userEvent.setup();
    render(
      <>
        <div data-testid="card">
          <FollowButton card={card} />
        </div>
        <div data-testid="row">
          <Star row={['150', 'Ann Lee', '#/events/ev1/tracking/tk150']} />
        </div>
        <Favourites />
      </>,
    );
    const follow = within(screen.getByTestId('card')).getByRole('button');
    const rowStar = within(screen.getByTestId('row')).getByRole('button');
    expect(follow.getAttribute('aria-pressed')).toBe('false');
    expect(rowStar.getAttribute('aria-pressed')).toBe('false');

    await user.click(follow);
    expect(follow.getAttribute('aria-pressed')).toBe('true');
    expect(rowStar.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('favourites').textContent).toBe('150|tk150');

    await user.click(rowStar);
    expect(rowStar.getAttribute('aria-pressed')).toBe('false');
    expect(follow.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('favourites').textContent).toBe('|');

    // Starred in the table: followed on /genericTracking too (the row's link gives its card).
    await user.click(rowStar);
    expect(follow.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('favourites').textContent).toBe('150|tk150');
  });
});
