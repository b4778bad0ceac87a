import type { ColumnDef } from '@tempora/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { alignmentOf, formatTimeCell, ReportCell } from './report-cell.tsx';

const column = (over: Partial<ColumnDef>): ColumnDef => ({
  FieldIdx: 1,
  Colspan: 1,
  Bold: false,
  Italic: false,
  Alignment: 'Left',
  UrlColumnIdx: -1,
  Settings: {},
  Title: { en: 'T', fr: 'T' },
  Type: 'text',
  ...over,
});

function cell(col: ColumnDef, row: unknown[], onToggle = vi.fn(), favorite = false, flagBase = '') {
  return render(
    <ReportCell
      column={col}
      row={row}
      keyField={0}
      favorite={favorite}
      onToggleFavorite={onToggle}
      flagBase={flagBase}
      starLabel={(key, pressed) => ({ label: `Favourite: bib ${key}`, title: pressed ? 'on' : 'off' })}
    />,
  );
}

describe('report cells (spec §3, §5)', () => {
  it('formats times as s, m:ss, h:mm:ss, blank at zero, with decimals from Settings', () => {
    expect(formatTimeCell(42_000)).toBe('42');
    expect(formatTimeCell(65_000)).toBe('1:05');
    expect(formatTimeCell(3_725_000)).toBe('1:02:05');
    expect(formatTimeCell(0)).toBe('');
    expect(formatTimeCell(null)).toBe('');
    expect(formatTimeCell(61_234, 2)).toBe('1:01.23');
    cell(column({ Type: 'time', Settings: { Decimals: 1 } }), ['k', 9_876]);
    expect(screen.getByRole('cell').textContent).toBe('9.8');
  });

  it('shows a status code as its label in the page language, a rank as it is', () => {
    const rank = column({ Settings: { Labels: 'status' } });
    const show = (value: string, lng: 'en' | 'fr') => {
      const { unmount } = render(
        <ReportCell
          column={rank}
          row={['k', value]}
          keyField={0}
          favorite={false}
          onToggleFavorite={vi.fn()}
          flagBase=""
          lng={lng}
        />,
      );
      const text = screen.getByRole('cell').textContent;
      unmount();
      return text;
    };
    expect(show('notStarted', 'en')).toBe('Not started');
    expect(show('notStarted', 'fr')).toBe('Non parti');
    expect(show('DNF', 'fr')).toBe('Abandon');
    expect(show('12', 'fr')).toBe('12');
    // A narrow rank column shows the short form, the full label for screen readers and as a title.
    const narrow = render(
      <ReportCell
        column={rank}
        row={['k', 'DNS']}
        keyField={0}
        favorite={false}
        onToggleFavorite={vi.fn()}
        flagBase=""
        lng="fr"
        short
      />,
    );
    expect(screen.getByRole('cell').textContent).toBe('NPNon partant');
    expect(screen.getByTitle('Non partant')).toBeTruthy();
    expect(screen.getByText('NP').getAttribute('aria-hidden')).toBe('true');
    narrow.unmount();
    cell(column({}), ['k', 'DNF']);
    expect(screen.getByRole('cell').textContent).toBe('DNF');
  });

  it('aligns Center and Right, anything else left', () => {
    expect(alignmentOf({ Alignment: 'Center' })).toBe('center');
    expect(alignmentOf({ Alignment: 'Right' })).toBe('right');
    expect(alignmentOf({ Alignment: 'whatever' })).toBe('left');
    cell(column({ Alignment: 'Right' }), ['k', '12']);
    expect(getComputedStyle(screen.getByRole('cell')).textAlign).toBe('right');
  });

  it('sanitises html cells: no script, no handlers, no javascript: links', async () => {
    const { container } = cell(column({ Type: 'html' }), [
      'k',
      '<b>ok</b><img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a>',
    ]);
    // The sanitiser loads on demand; nothing is shown before it.
    expect(container.querySelector('img')).toBeNull();
    await waitFor(() => expect(container.querySelector('b')?.textContent).toBe('ok'));
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/javascript/);
  });

  it('links a cell to the row value at UrlColumnIdx with Settings.Target; bold and italic', () => {
    cell(column({ UrlColumnIdx: 2, Bold: true, Italic: true, Settings: { Target: '_blank' } }), [
      'k',
      'DOE John',
      '#/x',
    ]);
    const link = screen.getByRole('link', { name: 'DOE John' });
    expect(link.getAttribute('href')).toBe('#/x');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    const style = getComputedStyle(screen.getByRole('cell'));
    expect(style.fontWeight).toBe('700');
    expect(style.fontStyle).toBe('italic');
  });

  it('never links to javascript: urls and spans Colspan columns', () => {
    cell(column({ UrlColumnIdx: 2, Colspan: 2 }), ['k', 'Name', 'javascript:alert(1)']);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('cell').getAttribute('aria-colspan')).toBe('2');
  });

  it('toggles the favourite star of the row key, with aria-pressed', async () => {
    const onToggle = vi.fn();
    cell(column({ Type: 'favorite' }), ['F3'], onToggle, true);
    const star = screen.getByRole('button', { name: /bib F3/ });
    expect(star.getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(star);
    expect(onToggle).toHaveBeenCalledWith('F3', undefined);
  });

  it('shows a 20 px flag from the blob host, the code without one, nothing for spacers', () => {
    const { container } = cell(
      column({ Type: 'flag' }),
      ['k', 'BEL'],
      vi.fn(),
      false,
      'https://blob.example/',
    );
    const img = container.querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://blob.example/flags/BEL.png');
    expect(img?.getAttribute('height')).toBe('20');
    cell(column({ Type: 'flag' }), ['k', 'FRA']);
    expect(screen.getByTitle('FRA').textContent).toBe('FRA');
    const spacer = cell(column({ Type: 'spacer' }), ['k', 'x']);
    expect(spacer.container.textContent).toBe('');
  });
});
