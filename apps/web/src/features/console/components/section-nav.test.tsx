import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { groupReports } from './report-groups.ts';
import { SectionNav, useScrollToSection } from './section-nav.tsx';

function Page() {
  useScrollToSection(true);
  return (
    <>
      <SectionNav
        sections={[
          { id: 'race-details', title: 'Race' },
          { id: 'race-points', title: 'Timing points' },
        ]}
      />
      <section id="race-points">
        <h3>Timing points</h3>
      </section>
    </>
  );
}

describe('race page sections (issue 29)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces('console');
  });

  it('links every section through the hash route and opens the one the link names', () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    render(
      <MemoryRouter initialEntries={['/console/events/e/races/r#race-points']}>
        <Page />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Sections of the race' });
    const links = nav.querySelectorAll('a');
    expect([...links].map((a) => a.getAttribute('href'))).toEqual([
      '/console/events/e/races/r#race-details',
      '/console/events/e/races/r#race-points',
    ]);
    expect(screen.getByRole('link', { name: 'Timing points' }).getAttribute('aria-current')).toBe('location');
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(document.activeElement?.textContent).toBe('Timing points');
  });

  it('groups reports: made with the race, per category, added', () => {
    const r = (key: string, standard: boolean, scope: 'overall' | 'category' | null) =>
      ({ key, standard, scope }) as Parameters<typeof groupReports>[0][number];
    const groups = groupReports([
      r('LIVE1', true, 'overall'),
      r('CAT-F20', true, 'category'),
      r('CLUB', false, 'overall'),
    ]);
    expect(groups.map((g) => [g.id, g.reports.map((x) => x.key)])).toEqual([
      ['standard', ['LIVE1']],
      ['categories', ['CAT-F20']],
      ['added', ['CLUB']],
    ]);
  });
});
