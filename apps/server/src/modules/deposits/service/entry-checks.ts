import type { EntryInput } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import { assessEntry } from '../entry-rules.ts';
import * as repo from '../repository.ts';
import type { DepositsContext } from './shared.ts';

/**
 * An entry's fields from the input (over the stored entry's), and their validation against the
 * event's races and the event's other entries (duplicates). Used by the entries and by the
 * substitutions.
 */
export function createEntryChecks(ctx: DepositsContext) {
  const { database } = ctx;

  /** Validates an entry's fields against the event's races and the other entries. */
  async function checkedEntry(deposit: repo.DepositRow, fields: repo.EntryFields & { id?: string }) {
    const races = new Map((await repo.racesOfEvent(database, deposit.eventId)).map((r) => [r.id, r]));
    const a = assessEntry(fields, races.get(fields.raceId ?? ''));
    if (a.error) {
      const status = a.error.code === 'RACE_NOT_FOUND' ? 'badRequest' : 'badRequest';
      throw errors[status](a.error.code, a.error.message, [
        { field: a.error.field, message: a.error.message },
      ]);
    }
    if (fields.raceId && fields.firstName && fields.lastName && fields.birthDate) {
      const duplicate = await repo.findDuplicate(database, deposit.eventId, {
        ...(fields.id ? { id: fields.id } : {}),
        raceId: fields.raceId,
        firstName: fields.firstName,
        lastName: fields.lastName,
        birthDate: fields.birthDate,
      });
      if (duplicate) {
        throw errors.conflict('ENTRY_DUPLICATE', 'Already entered in this race (same name and birth date)');
      }
    }
    return { ...fields, category: a.category, state: a.state };
  }

  return { checkedEntry };
}

export type EntryChecks = ReturnType<typeof createEntryChecks>;

/** The stored fields of an entry: the input's, else the stored entry's (`base`). */
export function fieldsOf(input: EntryInput, base?: repo.EntryRow): repo.EntryFields {
  const pick = <K extends keyof repo.EntryFields>(k: K, v: repo.EntryFields[K] | undefined) =>
    v !== undefined ? v : (base?.[k] ?? null);
  return {
    raceId: pick('raceId', input.raceId) as string | null,
    firstName: input.placeholder ? '' : ((pick('firstName', input.firstName) as string | null) ?? ''),
    lastName: input.placeholder ? '' : ((pick('lastName', input.lastName) as string | null) ?? ''),
    gender: pick('gender', input.gender) as repo.EntryFields['gender'],
    birthDate: pick('birthDate', input.birthDate) as string | null,
    email: (pick('email', input.email) as string | null) ?? '',
    nationality: ((pick('nationality', input.nationality) as string | null) ?? '').toUpperCase(),
    category: null,
    state: 'submitted',
  };
}
