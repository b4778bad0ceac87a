import type { ParticipantField, RowIssue } from './participants.ts';

/**
 * What a participant import's refused-rows file says (issue 29), in each language: the same words
 * as the web client's `participants` namespace (apps/web/src/locales/{en,fr}/participants.json,
 * `fields.*` and `issues.*`; the web test `import-labels.test.ts` holds them equal).
 */
export type ImportLng = 'en' | 'fr';
type Words = Record<ImportLng, string>;

/** The message key of an issue: a duplicate names its other line or the runner already registered. */
export function importIssueKey(issue: Pick<RowIssue, 'code' | 'otherLine' | 'otherName'>): string {
  if (issue.otherLine !== undefined) return `${issue.code}_line`;
  if (issue.otherName !== undefined) return `${issue.code}_owner`;
  return issue.code;
}

export const importFieldLabels: Record<ParticipantField, Words> = {
  bib: { en: 'Bib', fr: 'Dossard' },
  firstName: { en: 'First name', fr: 'Prénom' },
  lastName: { en: 'Last name', fr: 'Nom' },
  gender: { en: 'Gender', fr: 'Sexe' },
  birthDate: { en: 'Birth date', fr: 'Date de naissance' },
  age: { en: 'Age', fr: 'Âge' },
  club: { en: 'Club', fr: 'Club' },
  nationality: { en: 'Nationality', fr: 'Nationalité' },
  email: { en: 'E-mail', fr: 'E-mail' },
  chip: { en: 'Chip', fr: 'Puce' },
  category: { en: 'Category', fr: 'Catégorie' },
  wave: { en: 'Wave', fr: 'Vague' },
};

export const importIssueLabels: Record<string, Words> = {
  MISSING_FIELD: { en: '{{field}} is missing', fr: '{{field}} manquant' },
  BAD_DATE: {
    en: "{{field}}: '{{value}}' is not a date",
    fr: '{{field}} : « {{value}} » n’est pas une date',
  },
  BAD_AGE: { en: "{{field}}: '{{value}}' is not an age", fr: '{{field}} : « {{value}} » n’est pas un âge' },
  UNKNOWN_GENDER: {
    en: "{{field}}: '{{value}}' is not a known gender",
    fr: '{{field}} : « {{value}} » n’est pas un sexe connu',
  },
  BAD_NATIONALITY: {
    en: "{{field}}: '{{value}}' is not a three-letter code",
    fr: '{{field}} : « {{value}} » n’est pas un code à trois lettres',
  },
  BAD_EMAIL: {
    en: "{{field}}: '{{value}}' does not look like an e-mail",
    fr: '{{field}} : « {{value}} » ne ressemble pas à un e-mail',
  },
  BAD_BIB: {
    en: "{{field}}: '{{value}}' is not a bib (letters, digits, -)",
    fr: '{{field}} : « {{value}} » n’est pas un dossard (lettres, chiffres, -)',
  },
  DUPLICATE_BIB: { en: 'Bib {{value}} is already taken', fr: 'Le dossard {{value}} est déjà pris' },
  DUPLICATE_BIB_line: {
    en: 'Bib {{value}} is also on line {{line}}',
    fr: 'Le dossard {{value}} est aussi à la ligne {{line}}',
  },
  DUPLICATE_BIB_owner: {
    en: 'Bib {{value}} belongs to {{name}} (already registered)',
    fr: 'Le dossard {{value}} appartient à {{name}} (déjà inscrit)',
  },
  DUPLICATE_PERSON: {
    en: 'Already registered (same name and birth date)',
    fr: 'Déjà inscrit (même nom et même date de naissance)',
  },
  DUPLICATE_PERSON_line: {
    en: 'Same name and birth date as line {{line}}',
    fr: 'Même nom et même date de naissance qu’à la ligne {{line}}',
  },
  DUPLICATE_EMAIL: {
    en: 'E-mail {{value}} is already used by another participant',
    fr: 'L’e-mail {{value}} est déjà utilisé par un autre participant',
  },
  NO_CATEGORY: {
    en: 'The age fits no category of the race',
    fr: 'L’âge ne correspond à aucune catégorie de la course',
  },
};

/** Headers the refused-rows file adds after the file's own columns. */
export const refusedFileHeaders: Record<'line' | 'reason', Words> = {
  line: { en: 'Line', fr: 'Ligne' },
  reason: { en: 'Reason', fr: 'Motif' },
};

/** One issue as a sentence in `lng`. */
export function importIssueText(issue: RowIssue, lng: ImportLng): string {
  const words = importIssueLabels[importIssueKey(issue)] ?? importIssueLabels[issue.code];
  const values: Record<string, string> = {
    field: issue.field ? importFieldLabels[issue.field][lng] : '',
    value: issue.value ?? '',
    line: issue.otherLine === undefined ? '' : String(issue.otherLine),
    name: issue.otherName ?? '',
  };
  return (words?.[lng] ?? issue.code).replace(/\{\{(\w+)\}\}/g, (_m, k: string) => values[k] ?? '');
}
