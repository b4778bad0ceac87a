import { abilityFromRules, rulesFor } from '@tempora/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../lib/i18n.ts';
import { DRAWER_WIDTH, NavDrawer, RAIL_WIDTH } from './nav-drawer.tsx';

const auth = vi.hoisted(() => ({ current: { status: 'signedOut', ability: null as unknown } }));
vi.mock('../../lib/auth/auth-context.tsx', () => ({ useAuth: () => auth.current }));

const user = (isConfirmationAccount: boolean) =>
  abilityFromRules(
    rulesFor({ sub: 'u1', email: 'a@b.c', isPlatformStaff: false, isConfirmationAccount, memberships: [] }),
  );

function renderDrawer(props: Partial<Parameters<typeof NavDrawer>[0]> = {}) {
  const handlers = { onClose: vi.fn(), onTogglePin: vi.fn(), onHover: vi.fn() };
  render(
    <MemoryRouter>
      <NavDrawer variant="permanent" open expanded pinned={false} {...handlers} {...props} />
    </MemoryRouter>,
  );
  return handlers;
}

describe('navigation drawer (spec §2)', () => {
  beforeAll(() => {
    initI18n('en');
  });

  it('is titled with the product name when expanded, 300 wide; a 56 rail otherwise', () => {
    auth.current = { status: 'signedOut', ability: abilityFromRules(rulesFor(null)) };
    renderDrawer();
    expect(screen.getByTestId('drawer-title').textContent).toBe('Tempora');
    expect(getComputedStyle(screen.getByTestId('nav-drawer')).width).toBe(`${DRAWER_WIDTH}px`);
  });

  it('shows a rail without the title when not expanded', () => {
    auth.current = { status: 'signedOut', ability: abilityFromRules(rulesFor(null)) };
    renderDrawer({ expanded: false });
    expect(screen.queryByTestId('drawer-title')).toBeNull();
    expect(getComputedStyle(screen.getByTestId('nav-drawer')).width).toBe(`${RAIL_WIDTH}px`);
  });

  it('shows the Confirmation entry only with the ability manage Confirmation', () => {
    auth.current = { status: 'signedIn', ability: user(false) };
    renderDrawer();
    expect(screen.queryByRole('link', { name: 'Confirmation' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Payments' })).toBeTruthy();
  });

  it('shows the Confirmation entry to the confirmation account', () => {
    auth.current = { status: 'signedIn', ability: user(true) };
    renderDrawer();
    expect(screen.getByRole('link', { name: 'Confirmation' }).getAttribute('href')).toBe(
      '/confirmation/home',
    );
  });

  it('shows Diagnostics to the people who run a race only (issue 43)', () => {
    auth.current = { status: 'signedOut', ability: abilityFromRules(rulesFor(null)) };
    renderDrawer();
    expect(screen.queryByRole('link', { name: 'Diagnostics' })).toBeNull();
    auth.current = { status: 'signedIn', ability: user(false) };
    renderDrawer();
    expect(screen.queryByRole('link', { name: 'Diagnostics' })).toBeNull();
    const timekeeper = abilityFromRules(
      rulesFor({
        sub: 'u2',
        email: 't@b.c',
        isPlatformStaff: false,
        isConfirmationAccount: false,
        memberships: [{ organisationId: 'o1', role: 'timekeeper' }],
      }),
    );
    auth.current = { status: 'signedIn', ability: timekeeper };
    renderDrawer();
    expect(screen.getByRole('link', { name: 'Diagnostics' }).getAttribute('href')).toBe('/test');
  });

  it('pins from its title bar', () => {
    auth.current = { status: 'signedOut', ability: abilityFromRules(rulesFor(null)) };
    const pinned = renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Pin the menu' }));
    expect(pinned.onTogglePin).toHaveBeenCalledOnce();
  });

  it('closes a temporary drawer on navigation', () => {
    auth.current = { status: 'signedOut', ability: abilityFromRules(rulesFor(null)) };
    const handlers = renderDrawer({ variant: 'temporary' });
    fireEvent.click(screen.getByRole('link', { name: 'Athlete tracking' }));
    expect(handlers.onClose).toHaveBeenCalled();
  });
});
