import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n.ts';
import { findRow, JumpToRow } from './jump-to-row.tsx';
import { rankFieldOf } from './rank-field.ts';

initI18n('en');

// Issue 27: a 26,000-row table. Rows: [bib, order, rank, name]; ranks 1, 2, 2 (a tie), 4, …
const rows = Array.from({ length: 26_410 }, (_, i) => [
  String(1000 + i),
  i,
  String(i === 2 ? 2 : i + 1),
  `R${i}`,
]);
const columns = [{ FieldIdx: 3 }, { FieldIdx: 2 }, { FieldIdx: 0 }];

describe('jump to a rank or a bib (issue 27)', () => {
  it('finds a rank near its row (ties included) and a bib by its key', () => {
    expect(rankFieldOf(columns, rows)).toBe(2);
    expect(findRow(rows, 0, 2, 'rank', '20000')).toBe(19_999);
    expect(findRow(rows, 0, 2, 'rank', '3')).toBe(-1); // tied at 2: no third
    expect(findRow(rows, 0, 2, 'rank', '2')).toBe(1);
    expect(findRow(rows, 0, 2, 'bib', '1042')).toBe(42);
    expect(findRow(rows, 0, 2, 'rank', '99999')).toBe(-1);
    expect(findRow(rows, 0, 2, 'rank', 'x')).toBe(-1);
  });

  it('jumps from the form, and says in a live region what it did not find', () => {
    const onJump = vi.fn();
    render(<JumpToRow rows={rows} keyField={0} rankField={2} onJump={onJump} />);
    expect(screen.getByRole('search', { name: 'Go to a rank or a bib' })).toBeTruthy();
    const value = screen.getByRole('textbox', { name: 'Rank or bib number' });
    fireEvent.change(value, { target: { value: '20000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(onJump).toHaveBeenLastCalledWith(19_999);
    fireEvent.change(screen.getByRole('combobox', { name: 'Go to' }), { target: { value: 'bib' } });
    fireEvent.change(value, { target: { value: '7' } });
    fireEvent.submit(value);
    expect(onJump).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('No row for Bib 7');
  });

  it('asked while the rest of the table loads, it waits for the rows and then jumps', () => {
    const onJump = vi.fn();
    const first = rows.slice(0, 100);
    const { rerender } = render(
      <JumpToRow rows={first} keyField={0} rankField={2} loading onJump={onJump} />,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Rank or bib number' }), {
      target: { value: '20000' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(onJump).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Loading the rest of the list…');
    rerender(<JumpToRow rows={rows} keyField={0} rankField={2} onJump={onJump} />);
    expect(onJump).toHaveBeenCalledWith(19_999);
    expect(screen.getByRole('status').textContent).toBe('');
    // Once loaded, what is not there is said so.
    fireEvent.change(screen.getByRole('textbox', { name: 'Rank or bib number' }), {
      target: { value: '99999' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(screen.getByRole('status').textContent).toBe('No row for Rank 99999');
  });
});
