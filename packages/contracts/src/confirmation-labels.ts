import type { DocumentStatus, IssueCode, RowField, SenderKind } from './confirmation.ts';

/**
 * What the confirmation report's PDF and XLSX print (issue 17), in each language: the same words as
 * the web client's `confirmation` namespace (apps/web/src/locales/{en,fr}/confirmation.json), never a
 * raw code such as `partlyConfirmed`. Duplicate issues are printed without their link (the file
 * gives the row; the console shows what it duplicates).
 */
export type ReportLng = 'en' | 'fr';

type Words = Record<ReportLng, string>;

export const documentStatusLabels: Record<DocumentStatus, Words> = {
  uploaded: { en: 'Uploaded', fr: 'Reçu' },
  mapped: { en: 'Mapped', fr: 'Colonnes associées' },
  validated: { en: 'Validated', fr: 'Validé' },
  partlyConfirmed: { en: 'Partly confirmed', fr: 'Partiellement confirmé' },
  confirmed: { en: 'Confirmed', fr: 'Confirmé' },
  closed: { en: 'Closed', fr: 'Clôturé' },
  rejected: { en: 'Rejected', fr: 'Refusé' },
};

export const senderKindLabels: Record<SenderKind, Words> = {
  club: { en: 'Club', fr: 'Club' },
  company: { en: 'Company', fr: 'Entreprise' },
  school: { en: 'School', fr: 'École' },
};

export const rowFieldLabels: Record<RowField | 'row', Words> = {
  firstName: { en: 'First name', fr: 'Prénom' },
  lastName: { en: 'Last name', fr: 'Nom' },
  gender: { en: 'Gender', fr: 'Sexe' },
  birthDate: { en: 'Birth date', fr: 'Date de naissance' },
  email: { en: 'E-mail', fr: 'E-mail' },
  race: { en: 'Race', fr: 'Course' },
  bib: { en: 'Bib', fr: 'Dossard' },
  nationality: { en: 'Nationality', fr: 'Nationalité' },
  row: { en: 'Row', fr: 'Ligne' },
};

export const issueLabels: Record<IssueCode, Words> = {
  MISSING: { en: 'Missing', fr: 'Manquant' },
  INVALID_DATE: { en: 'Not a valid date', fr: 'Date non valable' },
  UNKNOWN_GENDER: { en: 'Unknown gender (M, F or X)', fr: 'Sexe inconnu (M, F ou X)' },
  UNKNOWN_RACE: { en: 'Unknown race', fr: 'Course inconnue' },
  RACE_FULL: { en: 'The race is full', fr: 'La course est complète' },
  AGE_OUTSIDE_CATEGORIES: {
    en: "Age outside the race's categories",
    fr: 'Âge hors des catégories de la course',
  },
  BIB_TAKEN: { en: 'Bib already taken', fr: 'Dossard déjà pris' },
  BIB_OUTSIDE_RANGE: { en: "Bib outside the race's range", fr: 'Dossard hors de la plage de la course' },
  INVALID_EMAIL: { en: 'Doubtful e-mail', fr: 'E-mail douteux' },
  DUPLICATE_IN_FILE: { en: 'Duplicate of another row', fr: 'Doublon d’une autre ligne' },
  DUPLICATE_PARTICIPANT: { en: 'Already registered', fr: 'Déjà inscrit' },
  DUPLICATE_OTHER_DOCUMENT: { en: 'Also in another document', fr: 'Aussi dans un autre document' },
};

/** The report's own words: titles, sheet names, column headers. */
export const confirmationReportWords = {
  document: { en: 'Document', fr: 'Document' },
  event: { en: 'Event', fr: 'Épreuve' },
  sender: { en: 'Sender', fr: 'Expéditeur' },
  status: { en: 'Status', fr: 'Statut' },
  received: { en: 'Received', fr: 'Reçu le' },
  summary: { en: 'Summary', fr: 'Synthèse' },
  byRace: { en: 'By race', fr: 'Par course' },
  byCategory: { en: 'By category', fr: 'Par catégorie' },
  categories: { en: 'Categories', fr: 'Catégories' },
  errors: { en: 'Rows still in error', fr: 'Lignes encore en erreur' },
  errorsSheet: { en: 'Errors', fr: 'Erreurs' },
  noErrors: { en: 'No row in error.', fr: 'Aucune ligne en erreur.' },
  race: { en: 'Race', fr: 'Course' },
  category: { en: 'Category', fr: 'Catégorie' },
  confirmed: { en: 'Confirmed', fr: 'Confirmées' },
  pending: { en: 'Pending', fr: 'En attente' },
  rejected: { en: 'Rejected', fr: 'Refusées' },
  unitPrice: { en: 'Price (EUR)', fr: 'Prix (EUR)' },
  fees: { en: 'Fees (EUR)', fr: 'Montant (EUR)' },
  total: { en: 'Total', fr: 'Total' },
  row: { en: 'Row', fr: 'Ligne' },
  name: { en: 'Name', fr: 'Nom' },
  issues: { en: 'Issues', fr: 'Problèmes' },
} satisfies Record<string, Words>;
