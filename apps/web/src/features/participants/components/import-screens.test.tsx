import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ImportPreview, UploadInfo } from '@tempora/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { initI18n } from '../../../lib/i18n.ts';
import { ImportHistory } from './import-history.tsx';
import { MappingFields } from './mapping-fields.tsx';
import { PreviewSection } from './preview-section.tsx';

const api = vi.hoisted(() => ({
  history: [] as unknown[],
  undo: vi.fn(),
  downloadRefused: vi.fn(() => Promise.resolve()),
}));
vi.mock('../api/imports.ts', async () => {
  const { useMutation } = await import('@tanstack/react-query');
  return {
    useImportHistory: () => ({ data: api.history, isError: false }),
    useUndoImport: () => useMutation({ mutationFn: api.undo }),
    downloadRefused: api.downloadRefused,
  };
});

const wrap = (ui: React.ReactNode) =>
  render(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);

const sheet: UploadInfo['sheets'][number] = {
  name: 'Inscrits',
  header: ['Dossard', 'Nom', 'Vide'],
  rows: 3,
  sample: [],
  columnSamples: [['39', '12'], ['Martin', 'Durand'], []],
  guess: {},
};

const preview: ImportPreview = {
  total: 4,
  valid: 2,
  invalid: 2,
  warned: 0,
  problems: [
    {
      line: 2,
      values: { bib: '39' },
      errors: [{ code: 'DUPLICATE_BIB', field: 'bib', value: '39', otherName: 'Jane Doe' }],
      warnings: [],
    },
    {
      line: 4,
      values: { bib: '12' },
      errors: [{ code: 'DUPLICATE_BIB', field: 'bib', value: '12', otherLine: 3 }],
      warnings: [],
    },
  ],
  sample: [],
  race: { withoutBib: 3, bibRange: null, categories: 0 },
};

const entry = {
  id: 'i1',
  fileName: 'inscrits.xlsx',
  raceId: 'r',
  raceName: '10 km',
  imported: 5,
  refused: 2,
  total: 7,
  actorEmail: 'org@example.test',
  at: '2026-11-26T10:00:00Z',
  undoneAt: null,
  undoneBy: null,
};

describe('the participant import screens (issue 29)', () => {
  beforeAll(async () => {
    initI18n('en');
    await i18next.loadNamespaces(['participants', 'fieldErrors']);
  });

  it('shows the values of the chosen column under each mapping choice', () => {
    wrap(<MappingFields sheet={sheet} mapping={{ bib: 'Dossard', lastName: 'Vide' }} onChange={() => {}} />);
    expect(screen.getByText('e.g. 39 · 12')).toBeTruthy();
    expect(screen.getByText('(empty in the first rows)')).toBeTruthy();
  });

  it('says once that the race has no bib range nor categories, and names duplicates’ other row', () => {
    wrap(<PreviewSection preview={preview}>{null}</PreviewSection>);
    const notices = screen.getByTestId('import-notices');
    expect(within(notices).getAllByRole('alert')).toHaveLength(2);
    expect(notices.textContent).toContain('3 runners without a bib will keep none');
    expect(notices.textContent).toContain('The race has no categories');
    expect(screen.getByText(/Bib 39 belongs to Jane Doe \(already registered\)/)).toBeTruthy();
    expect(screen.getByText(/Bib 12 is also on line 3/)).toBeTruthy();
    expect(screen.queryByText(/No bib/)).toBeNull();
  });

  it('downloads refused rows and undoes an import after a confirmation', async () => {
    api.history = [entry];
    api.undo.mockResolvedValueOnce({ removed: 5, restored: 0 });
    wrap(<ImportHistory eventId="ev" />);
    await userEvent.click(screen.getByRole('button', { name: 'Refused rows (CSV)' }));
    expect(api.downloadRefused).toHaveBeenCalledWith('ev', 'i1', 'csv', 'en');
    await userEvent.click(screen.getByRole('button', { name: 'Undo the import of inscrits.xlsx' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('The 5 participants it created will be removed');
    expect(api.undo).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Undo the import' }));
    await waitFor(() => expect(screen.getByText('Import undone: 5 participants removed.')).toBeTruthy());
    expect(api.undo.mock.calls[0]?.[0]).toBe('i1');
  });

  it('lists why an undo is refused, translated from the problem’s field errors', async () => {
    api.history = [entry];
    const { fieldErrorsOf } = await import('../../../lib/field-errors.ts');
    api.undo.mockRejectedValueOnce(
      new ApiError(
        409,
        'IMPORT_UNDO_REFUSED',
        'Runners of this import are used elsewhere',
        fieldErrorsOf([
          {
            field: 'results',
            code: 'usedByResults',
            params: { count: 1, names: '77 Tom Roux' },
            message: '1 runner(s): 77 Tom Roux',
          },
        ]),
      ),
    );
    wrap(<ImportHistory eventId="ev" />);
    await userEvent.click(screen.getByRole('button', { name: 'Undo the import of inscrits.xlsx' }));
    await userEvent.click(screen.getByRole('button', { name: 'Undo the import' }));
    const refused = await screen.findByTestId('undo-refused');
    expect(refused.textContent).toContain(
      '1 runner of this import has results (passings or a race-day status): 77 Tom Roux',
    );
    expect(screen.queryByText(/Import undone/)).toBeNull();
  });
});
