import type { RowField } from '@tempora/contracts';
import { foldText } from '@tempora/domain';

const fold = (s: string) => foldText(s).replace(/[^a-z]/g, '');

/** Header words (English, French, Dutch) that name each field, folded. */
const WORDS: Record<RowField, string[]> = {
  firstName: ['firstname', 'first', 'prenom', 'givenname', 'voornaam'],
  lastName: ['lastname', 'last', 'nom', 'surname', 'familyname', 'name', 'achternaam', 'naam'],
  gender: ['gender', 'sex', 'sexe', 'genre', 'geslacht'],
  birthDate: [
    'birthdate',
    'dateofbirth',
    'birth',
    'born',
    'naissance',
    'datedenaissance',
    'dob',
    'geboortedatum',
  ],
  email: ['email', 'mail', 'courriel', 'adressemail'],
  race: ['race', 'course', 'epreuve', 'distance', 'wedstrijd'],
  bib: ['bib', 'dossard', 'number', 'numero', 'borstnummer'],
  nationality: ['nationality', 'nationalite', 'country', 'pays', 'nat', 'nationaliteit'],
};

/** A first mapping from the file's headers, offered when neither the document nor its sender has one. */
export function guessMapping(headers: readonly string[]): Partial<Record<RowField, string>> {
  const out: Partial<Record<RowField, string>> = {};
  const used = new Set<string>();
  for (const [field, words] of Object.entries(WORDS) as [RowField, string[]][]) {
    const header = headers.find((h) => !used.has(h) && words.includes(fold(h)));
    if (header) {
      out[field] = header;
      used.add(header);
    }
  }
  return out;
}
