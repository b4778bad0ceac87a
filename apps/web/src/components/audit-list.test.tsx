import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../lib/i18n.ts';
import { AuditList } from './audit-list.tsx';

describe('AuditList (issue 30: one list for every audit trail)', () => {
  beforeAll(() => {
    initI18n('en');
  });

  it('names the list, shows each entry with its time, actor (or the system) and details', () => {
    render(
      <AuditList
        label="History"
        timeZone="Pacific/Auckland"
        items={[
          {
            id: 2,
            at: '2026-01-02T23:30:00Z',
            actor: 'ann@example.test',
            action: 'Edited',
            details: ['Club: A → B'],
          },
          { id: 1, at: '2026-01-01T10:00:00Z', actor: null, action: 'Imported', dataAction: 'import' },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'History' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Edited');
    expect(rows[0]!.textContent).toContain('ann@example.test');
    expect(rows[0]!.textContent).toContain('Club: A → B');
    // Times in the event's zone (23:30 UTC is already the next day in Auckland).
    // Issue 43: the page language's format with the zone named, whatever the browser's zone.
    expect(rows[0]!.querySelector('time')?.textContent).toBe('3 Jan 2026, 12:30 UTC+13');
    expect(rows[1]!.textContent).toContain('System');
    expect(rows[1]!.getAttribute('data-action')).toBe('import');
  });

  it('says so when nothing is recorded, in French too', async () => {
    await i18next.changeLanguage('fr');
    render(<AuditList label="Historique" items={[]} />);
    expect(screen.getByText('Rien d’enregistré pour l’instant').textContent).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    await i18next.changeLanguage('en');
  });
});
