import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table.tsx';

interface Order {
  id: number;
  payer: string;
  cents: number;
}

const columns: DataTableColumn<Order>[] = [
  { key: 'id', header: '#', cell: (o) => o.id, width: 40 },
  { key: 'payer', header: 'Payer', cell: (o) => o.payer, sx: { fontStyle: 'italic' } },
  {
    key: 'amount',
    header: 'Amount',
    cell: (o) => (o.cents / 100).toFixed(2),
    align: 'right',
    cellSx: (o) => ({ color: o.cents < 0 ? 'error.main' : undefined }),
  },
];

describe('DataTable (one read-only table for the web)', () => {
  it('names the table, heads its columns and draws one row per item with its cells', () => {
    render(
      <DataTable
        label="Orders"
        caption="Two orders"
        columns={columns}
        rows={[
          { id: 1, payer: 'Ann', cents: 1250 },
          { id: 2, payer: 'Bob', cents: -500 },
        ]}
        getRowKey={(o) => o.id}
        getRowProps={(o) => ({ 'data-testid': `order-${o.id}` })}
      />,
    );
    const table = screen.getByRole('table', { name: 'Orders' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['#', 'Payer', 'Amount']);
    const row = screen.getByTestId('order-2');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', 'Bob', '-5.00']);
    expect(within(row).getAllByRole('cell')[2]!.className).toContain('alignRight');
    expect(screen.getByText('Two orders').tagName).toBe('CAPTION');
    // A column's `sx` styles its header and its cells; `cellSx` follows the row's value.
    expect(getComputedStyle(headers[1]!).fontStyle).toBe('italic');
    expect(getComputedStyle(within(row).getAllByRole('cell')[1]!).fontStyle).toBe('italic');
    expect(getComputedStyle(within(row).getAllByRole('cell')[2]!).color).not.toBe(
      getComputedStyle(within(screen.getByTestId('order-1')).getAllByRole('cell')[2]!).color,
    );
    // Scrolls sideways inside its container rather than squeezing the columns.
    expect(table.parentElement!.className).toContain('MuiTableContainer');
  });

  it('shows the empty text instead of an empty table, or the table when none is given', () => {
    const { rerender } = render(
      <DataTable label="Orders" columns={columns} rows={[]} getRowKey={(o) => o.id} empty="No order yet" />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No order yet')).toBeTruthy();
    rerender(<DataTable label="Orders" columns={columns} rows={[]} getRowKey={(o) => o.id} />);
    expect(screen.getByRole('table', { name: 'Orders' })).toBeTruthy();
  });

  it('is a named, focusable region only while it scrolls sideways (a keyboard can scroll it)', () => {
    const rows = [{ id: 1, payer: 'Ann', cents: 1 }];
    const table = <DataTable label="Orders" columns={columns} rows={rows} getRowKey={(o) => o.id} />;
    const { unmount } = render(table);
    expect(screen.queryByRole('region')).toBeNull();
    unmount();
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(320);
    render(table);
    const region = screen.getByRole('region', { name: 'Orders' });
    expect(region.tabIndex).toBe(0);
    vi.restoreAllMocks();
  });
});
