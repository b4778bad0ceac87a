import type { ConsoleParticipant, ParticipantExportColumn } from '@tempora/contracts';
import { sharedLocales } from '@tempora/contracts/locales';
import type { TextTable } from '../exports/port.ts';

type Lng = 'en' | 'fr';

/**
 * The grid's headers and statuses in each language: the console's own words, from the
 * `participants` namespace (packages/contracts/src/locales, issue 30: one label source).
 */
const HEADERS: Record<Lng, Record<ParticipantExportColumn, string>> = {
  en: { ...sharedLocales.en.participants.fields, race: sharedLocales.en.participants.fields.raceId },
  fr: { ...sharedLocales.fr.participants.fields, race: sharedLocales.fr.participants.fields.raceId },
};
const STATUS: Record<Lng, Record<ConsoleParticipant['status'], string>> = {
  en: sharedLocales.en.participants.status,
  fr: sharedLocales.fr.participants.status,
};

/** A birth date as the grid shows it in the reader's language (fr: 02/03/1985). */
export function birthDateText(iso: string | null, lng: Lng): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(lng, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));
}

/**
 * The participants grid as shown (issue 29): the columns on screen in their order, headed and
 * written in the reader's language, for the exports' one CSV and XLSX writers (`exports/`).
 */
export function participantsTable(
  rows: readonly ConsoleParticipant[],
  columns: readonly ParticipantExportColumn[],
  lng: Lng,
  raceNames: ReadonlyMap<string, string>,
  format: 'csv' | 'xlsx' = 'csv',
): TextTable {
  const cell = (row: ConsoleParticipant, column: ParticipantExportColumn): string => {
    switch (column) {
      case 'birthDate':
        // XLSX: a date cell (issue 41), from the ISO date; CSV: as the grid shows it.
        return format === 'xlsx' ? (row.birthDate ?? '') : birthDateText(row.birthDate, lng);
      case 'chips':
        return row.chips.join(' ');
      case 'race':
        return raceNames.get(row.raceId) ?? row.raceId;
      case 'status':
        return STATUS[lng][row.status];
      default:
        return row[column] ?? '';
    }
  };
  return {
    title: 'Participants',
    headers: columns.map((c) => HEADERS[lng][c]),
    aligns: columns.map((c) => (c === 'bib' ? 'right' : 'left')),
    bold: columns.map(() => false),
    kinds: columns.map((c) => (c === 'birthDate' ? 'date' : 'text')),
    rows: rows.map((row) => columns.map((c) => cell(row, c))),
  };
}
