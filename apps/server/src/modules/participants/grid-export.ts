import type { ConsoleParticipant, ParticipantExportColumn } from '@tempora/contracts';
import type { TextTable } from '../exports/port.ts';

type Lng = 'en' | 'fr';

const HEADERS: Record<Lng, Record<ParticipantExportColumn, string>> = {
  en: {
    bib: 'Bib',
    lastName: 'Last name',
    firstName: 'First name',
    gender: 'Gender',
    birthDate: 'Birth date',
    club: 'Club',
    nationality: 'Nationality',
    chips: 'Chips',
    category: 'Category',
    race: 'Race',
    status: 'Status',
  },
  fr: {
    bib: 'Dossard',
    lastName: 'Nom',
    firstName: 'Prénom',
    gender: 'Sexe',
    birthDate: 'Date de naissance',
    club: 'Club',
    nationality: 'Nationalité',
    chips: 'Puces',
    category: 'Catégorie',
    race: 'Course',
    status: 'Statut',
  },
};
const STATUS: Record<Lng, Record<ConsoleParticipant['status'], string>> = {
  en: { registered: 'Registered', DNS: 'Did not start', DNF: 'Did not finish', DSQ: 'Disqualified' },
  fr: { registered: 'Inscrit', DNS: 'Non partant', DNF: 'Abandon', DSQ: 'Disqualifié' },
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
): TextTable {
  const cell = (row: ConsoleParticipant, column: ParticipantExportColumn): string => {
    switch (column) {
      case 'birthDate':
        return birthDateText(row.birthDate, lng);
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
    rows: rows.map((row) => columns.map((c) => cell(row, c))),
  };
}
