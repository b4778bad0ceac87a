import type { FieldError } from '../../errors.ts';

/**
 * The tabular pipeline's second step (issue 30): mapping a sheet's columns to an import's fields.
 * A mapping names, per field, the header of the column holding it (`{ bib: 'Dossard' }`); every
 * import (participants, confirmation documents, result and passing CSVs) checks it against the
 * header here and reports the columns it does not find in the shared field-issue shape.
 */

/** A mapping of fields to header names; an absent (undefined) field is not mapped. */
export type ColumnMapping<F extends string = string> = Partial<Record<F, string | undefined>>;

/**
 * A first guess of the mapping from the header's names: `remembered` first (each of its columns
 * the header still has), then, for every other field in the order of `synonyms`, the first
 * column whose folded name is one of the field's synonyms and that no field holds yet.
 *
 * @example
 *   guessColumns(['Dossard', 'Nom'], { bib: ['dossard'], lastName: ['nom'] }, fold, null)
 *   // → { bib: 'Dossard', lastName: 'Nom' }
 */
export function guessColumns<F extends string>(
  header: readonly string[],
  synonyms: Record<F, readonly string[]>,
  fold: (name: string) => string,
  remembered: Partial<Record<F, string>> | null,
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  const folded = header.map(fold);
  if (remembered) {
    for (const [field, column] of Object.entries(remembered) as [F, string][]) {
      if (header.includes(column)) out[field] = column;
    }
  }
  for (const [field, names] of Object.entries(synonyms) as [F, readonly string[]][]) {
    if (out[field]) continue;
    const k = folded.findIndex(
      (h, i) => names.includes(h) && !Object.values(out).includes(header[i] as string),
    );
    if (k >= 0) out[field] = header[k] as string;
  }
  return out;
}

/**
 * The field a header names, by the synonyms of each field (compared after `fold`): for an import
 * that maps every column on its own (a captain's list of entries) rather than guessing a mapping
 * for review. A name listed under two fields belongs to the first.
 *
 * @example
 *   const fieldOf = fieldByHeader({ firstName: ['prenom'] }, fold);
 *   fieldOf('Prénom'); // → 'firstName'
 */
export function fieldByHeader<F extends string>(
  synonyms: Record<F, readonly string[]>,
  fold: (name: string) => string,
): (header: string) => F | undefined {
  const byName = new Map<string, F>();
  for (const [field, names] of Object.entries(synonyms) as [F, readonly string[]][])
    for (const name of names) if (!byName.has(name)) byName.set(name, field);
  return (header) => byName.get(fold(header));
}

/** How {@link unknownColumns} words its field issues. */
export interface UnknownColumnsWording {
  /** Before the field's name in `field` (`mapping.` for a mapping sent as a request's body). */
  fieldPrefix?: string;
  /** After `no column 'X'` in `message` (` in the sheet`, ` in the header`). */
  where?: string;
}

/**
 * The field issues of a mapping naming columns the header does not have, one per such field
 * (`{ field: 'mapping.bib', message: "no column 'Bib' in the sheet" }`); empty when it fits.
 */
export function unknownColumns(
  header: readonly string[],
  mapping: ColumnMapping,
  wording: UnknownColumnsWording = {},
): FieldError[] {
  const { fieldPrefix = '', where = '' } = wording;
  return Object.entries(mapping)
    .filter(([, column]) => column !== undefined && !header.includes(column))
    .map(([field, column]) => ({
      field: `${fieldPrefix}${field}`,
      message: `no column '${column}'${where}`,
    }));
}

/** The index in the header of every mapped field's column (-1 when the header lacks it). */
export function columnIndexes<M extends ColumnMapping>(
  header: readonly string[],
  mapping: M,
): Record<keyof M, number> {
  const out = {} as Record<keyof M, number>;
  for (const [field, column] of Object.entries(mapping)) {
    if (column === undefined) continue;
    out[field as keyof M] = header.indexOf(column);
  }
  return out;
}
