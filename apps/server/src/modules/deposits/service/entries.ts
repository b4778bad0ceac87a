import type { EntryInput } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import { settleDeposit } from '../confirm.ts';
import * as repo from '../repository.ts';
import { type EntryChecks, fieldsOf } from './entry-checks.ts';
import type { Messages } from './messages.ts';
import {
  type Actor,
  type DepositsContext,
  deadlineOf,
  requireBeforeDeadline,
  requireState,
  settingsOf,
} from './shared.ts';
import type { Substitutions } from './substitutions.ts';

/**
 * A deposit's entries (issue 18): adding (a member adds only their own), changing and removing
 * them, before the deadline (staff: any time). A paid entry's change becomes a substitution to
 * approve; a submitted deposit's change settles the deposit again and reloads the results.
 */
export function createEntries(
  ctx: DepositsContext,
  checks: EntryChecks,
  substitutions: Substitutions,
  messages: Messages,
) {
  const { database, results, now } = ctx;
  const { checkedEntry } = checks;
  const { applySubstitution } = substitutions;
  const { notifyOrganiser } = messages;

  async function addEntries(deposit: repo.DepositRow, actor: Actor, inputs: EntryInput[]) {
    const settings = await settingsOf(database, deposit.eventId);
    requireBeforeDeadline(now, deadlineOf(settings, deposit), actor.role);
    requireState(deposit, ['collecting']);
    if (actor.role === 'member') {
      const existing = await repo.entriesOf(database, deposit.id);
      if (inputs.length !== 1 || existing.some((e) => e.memberSub === actor.sub && e.state !== 'cancelled')) {
        throw errors.conflict('ENTRY_EXISTS', 'A member fills in one entry: their own');
      }
    }
    const rows: (repo.EntryFields & { memberSub: string | null })[] = [];
    for (const input of inputs) {
      const checked = await checkedEntry(deposit, fieldsOf(input));
      const self = actor.role === 'member' || input.self === true;
      rows.push({ ...checked, memberSub: self ? actor.sub : null });
    }
    const seen = new Set<string>();
    for (const r of rows) {
      if (!r.firstName) continue;
      const key = `${r.raceId}|${r.firstName.toLowerCase()}|${r.lastName.toLowerCase()}|${r.birthDate}`;
      if (seen.has(key))
        throw errors.conflict('ENTRY_DUPLICATE', `Twice in the list: ${r.firstName} ${r.lastName}`);
      seen.add(key);
    }
    await repo.insertEntries(database, deposit.id, rows);
  }

  async function updateEntry(deposit: repo.DepositRow, actor: Actor, entryId: string, input: EntryInput) {
    const entry = (await repo.entriesOf(database, deposit.id)).find((e) => e.id === entryId);
    if (!entry || entry.state === 'cancelled')
      throw errors.notFound('ENTRY_NOT_FOUND', `No entry '${entryId}'`);
    if (actor.role === 'member' && entry.memberSub !== actor.sub) {
      throw errors.forbidden('A member changes only their own entry');
    }
    const settings = await settingsOf(database, deposit.eventId);
    requireBeforeDeadline(now, deadlineOf(settings, deposit), actor.role);
    const fields = fieldsOf(input, entry);
    if (entry.state === 'confirmed') {
      // After payment a confirmed entry changes only with the organiser's approval (issue 18).
      if (fields.raceId !== entry.raceId)
        throw errors.conflict('RACE_CHANGE', 'The race of a paid entry stays');
      const checked = await checkedEntry(deposit, { ...fields, id: entry.id });
      if (checked.state !== 'valid')
        throw errors.badRequest('ENTRY_INCOMPLETE', 'A substitute needs every field');
      if (actor.role === 'staff') return applySubstitution(deposit, entry, checked);
      await repo.setSubstitution(database, entry.id, { ...input, raceId: entry.raceId });
      await notifyOrganiser(
        deposit,
        'substitutionAsked',
        `${entry.firstName} ${entry.lastName} → ${fields.firstName} ${fields.lastName}`,
      );
      return;
    }
    if (deposit.state !== 'collecting' && !['paid', 'awaiting_payment'].includes(deposit.state)) {
      throw errors.conflict('DEPOSIT_STATE', `Not possible while the deposit is ${deposit.state}`);
    }
    if (deposit.state !== 'collecting' && entry.raceId !== fields.raceId) {
      throw errors.conflict('RACE_CHANGE', 'The race of a submitted entry stays');
    }
    const checked = await checkedEntry(deposit, { ...fields, id: entry.id });
    // Once submitted, a placeholder is filled completely or not at all.
    if (deposit.state !== 'collecting' && checked.state !== 'valid') {
      throw errors.badRequest('ENTRY_INCOMPLETE', 'Fill in every field of a paid place');
    }
    const memberSub = entry.memberSub ?? (input.self ? actor.sub : null);
    const contexts = await database.transaction(async (sql) => {
      await repo.updateEntry(sql, entry.id, checked);
      if (memberSub !== entry.memberSub) {
        await sql.query('UPDATE deposit_entries SET member_sub = $2 WHERE id = $1::bigint', [
          entry.id,
          memberSub,
        ]);
      }
      return deposit.state !== 'collecting' ? settleDeposit(sql, deposit.id) : [];
    });
    // After the commit: a reader rebuilding the state meanwhile would otherwise keep the old one.
    for (const db of contexts) await results.reload(db);
  }

  async function removeEntry(deposit: repo.DepositRow, actor: Actor, entryId: string) {
    const entry = (await repo.entriesOf(database, deposit.id)).find((e) => e.id === entryId);
    if (!entry || entry.state === 'cancelled')
      throw errors.notFound('ENTRY_NOT_FOUND', `No entry '${entryId}'`);
    if (actor.role === 'member' && entry.memberSub !== actor.sub) throw errors.forbidden('Not your entry');
    requireState(deposit, ['collecting']);
    await repo.setEntryState(database, [entry.id], 'cancelled');
  }

  return { addEntries, updateEntry, removeEntry };
}
