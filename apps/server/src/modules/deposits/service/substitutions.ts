import type { EntryInput } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import * as repo from '../repository.ts';
import { type EntryChecks, fieldsOf } from './entry-checks.ts';
import type { DepositsContext } from './shared.ts';

/**
 * Substitutions (issue 18): after payment a confirmed entry changes runner only with the
 * organiser's approval. Applying one rewrites the entry and the participant holding its bib, and
 * reloads the results of that race's context.
 */
export function createSubstitutions(ctx: DepositsContext, checks: EntryChecks) {
  const { database, results } = ctx;
  const { checkedEntry } = checks;

  async function applySubstitution(deposit: repo.DepositRow, entry: repo.EntryRow, fields: repo.EntryFields) {
    const [race] = await database.query<{ db: string }>('SELECT db FROM races WHERE id = $1', [entry.raceId]);
    await database.transaction(async (sql) => {
      await repo.updateEntry(sql, entry.id, { ...fields, state: 'confirmed' });
      await repo.setSubstitution(sql, entry.id, null);
      await sql.query(
        `UPDATE participants SET first_name = $3, last_name = $4, gender = $5, birth_date = $6::date, nationality = $7,
           category = NULL WHERE race_id = $1 AND bib = $2`,
        [
          entry.raceId,
          entry.bib,
          fields.firstName,
          fields.lastName,
          fields.gender,
          fields.birthDate,
          fields.nationality,
        ],
      );
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [entry.raceId]);
    });
    if (race) await results.reload(race.db);
    void deposit;
  }

  async function decideSubstitution(deposit: repo.DepositRow, entryId: string, approve: boolean) {
    const entry = (await repo.entriesOf(database, deposit.id)).find((e) => e.id === entryId);
    if (!entry?.substitution)
      throw errors.notFound('SUBSTITUTION_NOT_FOUND', 'No substitution waits on this entry');
    if (!approve) return repo.setSubstitution(database, entry.id, null);
    const fields = await checkedEntry(deposit, {
      ...fieldsOf(entry.substitution as EntryInput, entry),
      id: entry.id,
    });
    return applySubstitution(deposit, entry, fields);
  }

  return { applySubstitution, decideSubstitution };
}

export type Substitutions = ReturnType<typeof createSubstitutions>;
