import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../lib/i18n.ts';
import { acceptsFile, FileDrop, formatFileSize } from './file-drop.tsx';

const csv = (name = 'entries.csv', size = 10) => new File(['x'.repeat(size)], name, { type: 'text/csv' });

/** A drag event's `dataTransfer` as jsdom lacks one. */
const transfer = (files: File[]) => ({ dataTransfer: { files, types: ['Files'], dropEffect: 'none' } });

describe('FileDrop (one file picker for the web)', () => {
  beforeAll(() => {
    initI18n('en');
  });
  afterEach(() => i18next.changeLanguage('en'));

  it('is a button for the keyboard and a named input that hands the chosen file on', async () => {
    const onFile = vi.fn();
    render(<FileDrop label="Choose a file" inputLabel="File (CSV)" accept=".csv" onFile={onFile} />);
    const button = screen.getByRole('button', { name: 'Choose a file' });
    button.focus();
    expect(document.activeElement).toBe(button);
    const input = screen.getByLabelText('File (CSV)') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('.csv');
    const click = vi.spyOn(input, 'click');
    await userEvent.keyboard('{Enter}');
    expect(click).toHaveBeenCalled();
    const file = csv();
    await userEvent.upload(input, file);
    expect(onFile).toHaveBeenCalledWith(file);
  });

  it('names the input by the label when no input label is given, and shows the chosen file', () => {
    render(<FileDrop label="Upload logo" onFile={() => {}} file={csv('logo.csv', 2048)} />);
    expect(screen.getByLabelText('Upload logo')).toBeTruthy();
    expect(screen.getByTestId('file-drop-chosen').textContent).toBe('logo.csv (2 kB)');
  });

  it('refuses a file over the limit with a message in the user language', async () => {
    const onFile = vi.fn();
    render(<FileDrop label="Choose" maxBytes={1024} onFile={onFile} />);
    await userEvent.upload(screen.getByLabelText('Choose'), csv('big.csv', 2048));
    expect(onFile).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('big.csv is too large (2 kB): at most 1 kB.');
    await i18next.changeLanguage('fr');
    await userEvent.upload(screen.getByLabelText('Choose'), csv('gros.csv', 3 * 1024 * 1024));
    expect(screen.getByRole('alert').textContent).toBe(
      'gros.csv est trop volumineux (3\u202fMo) : 1\u202fko au plus.',
    );
    await userEvent.upload(screen.getByLabelText('Choose'), csv('petit.csv', 10));
    expect(onFile).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('lights up under a dragged file and takes a dropped file of an accepted type', () => {
    const onFile = vi.fn();
    const { container } = render(<FileDrop label="Choose" accept=".gpx,application/json" onFile={onFile} />);
    const area = container.firstElementChild as HTMLElement;
    fireEvent.dragEnter(area, transfer([]));
    expect(area.getAttribute('data-dragover')).toBe('true');
    fireEvent.dragLeave(area, { relatedTarget: document.body });
    expect(area.getAttribute('data-dragover')).toBeNull();
    const notes = new File(['n'], 'notes.txt', { type: 'text/plain' });
    fireEvent.drop(area, transfer([notes]));
    expect(onFile).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('notes.txt is not a type of file accepted here.');
    const course = new File(['<gpx/>'], 'Course.GPX', { type: '' });
    fireEvent.drop(area, transfer([course]));
    expect(onFile).toHaveBeenCalledWith(course);
  });

  it('hands several files on with multiple, and nothing while disabled', async () => {
    const onFiles = vi.fn();
    const { container, rerender } = render(<FileDrop label="Photos" multiple onFiles={onFiles} />);
    const files = [csv('a.csv'), csv('b.csv')];
    await userEvent.upload(screen.getByLabelText('Photos'), files);
    expect(onFiles).toHaveBeenCalledWith(files);
    rerender(<FileDrop label="Photos" multiple onFiles={onFiles} disabled />);
    expect((screen.getByRole('button', { name: 'Photos' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.drop(container.firstElementChild as HTMLElement, transfer(files));
    expect(onFiles).toHaveBeenCalledTimes(1);
  });
});

describe('file helpers', () => {
  it('formats sizes in the language and matches accept lists', () => {
    expect(formatFileSize(512, 'en')).toBe('512 byte');
    expect(formatFileSize(1536, 'en')).toBe('1.5 kB');
    expect(formatFileSize(1536, 'fr')).toBe('1,5\u202fko');
    expect(acceptsFile('image/*', new File([''], 'a.png', { type: 'image/png' }))).toBe(true);
    expect(acceptsFile('.csv,text/csv', new File([''], 'a.xlsx', { type: '' }))).toBe(false);
    expect(acceptsFile(undefined, new File([''], 'a.xlsx'))).toBe(true);
  });
});
