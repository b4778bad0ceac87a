import type { BulkAction, RowEdits } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import * as repo from '../repository.ts';
import { type Fields, normaliseField } from '../validate.ts';
import { type Actor, type ConfirmationContext, requireRows } from './shared.ts';
import type { Validation } from './validation.ts';

/**
 * Changes to a document's rows (issue 17): cell edits, bulk actions, merges of duplicates, each
 * one undo step with its history, and undoing them; every change is validated again.
 * Confirmed rows are locked.
 */
export function createEdits(ctx: ConfirmationContext, validation: Validation) {
  const { database, history, reload } = ctx;
  const { revalidate } = validation;

  /** Cell edits (one undo step), then validation again. Confirmed rows are locked. */
  async function edit(doc: repo.DocumentRecord, input: RowEdits, actor: Actor) {
    requireRows(doc);
    const rows = new Map((await repo.rowsOf(database, doc.id)).map((r) => [r.id, r]));
    const touched = new Map<string, repo.RowRecord>();
    for (const edit of input.edits) {
      const row = rows.get(edit.rowId);
      if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${edit.rowId}' in this document`);
      if (row.decision === 'confirmed')
        throw errors.conflict('ROW_CONFIRMED', `Row ${row.position} is already a participant`);
      const copy = touched.get(row.id) ?? { ...row, fields: { ...row.fields } };
      copy.fields[edit.field] = normaliseField(edit.field, edit.value);
      touched.set(row.id, copy);
    }
    await saveStep(doc, [...touched.values()], rows, actor, 'edited', {
      cells: input.edits
        .map((e) => ({ position: rows.get(e.rowId)!.position, field: e.field, value: e.value }))
        .slice(0, 50),
      count: input.edits.length,
    });
    return repo.rowsOf(database, doc.id);
  }

  /** Bulk actions on a selection: set the race, reject, restore (one undo step). */
  async function bulk(doc: repo.DocumentRecord, action: BulkAction, actor: Actor) {
    requireRows(doc);
    const rows = new Map((await repo.rowsOf(database, doc.id)).map((r) => [r.id, r]));
    const selected = action.rowIds.map((id) => {
      const row = rows.get(id);
      if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${id}' in this document`);
      if (row.decision === 'confirmed')
        throw errors.conflict('ROW_CONFIRMED', `Row ${row.position} is already a participant`);
      return { ...row, fields: { ...row.fields } };
    });
    if (action.action === 'setRace') {
      const race = await repo.findRace(database, action.raceId);
      if (!race || race.eventId !== doc.eventId)
        throw errors.badRequest('RACE_NOT_FOUND', `No race '${action.raceId}' in this event`);
      for (const row of selected) row.fields.race = race.id;
    } else if (action.action === 'reject') {
      for (const row of selected) Object.assign(row, { decision: 'rejected', reason: action.reason || null });
    } else {
      for (const row of selected) Object.assign(row, { decision: 'pending', reason: null });
    }
    await saveStep(
      doc,
      selected,
      rows,
      actor,
      action.action === 'setRace' ? 'raceSet' : action.action === 'reject' ? 'rowsRejected' : 'rowsRestored',
      {
        positions: selected.map((r) => r.position).slice(0, 200),
        count: selected.length,
        ...(action.action === 'setRace' ? { raceId: action.raceId } : {}),
      },
    );
    return repo.rowsOf(database, doc.id);
  }

  /** Undoes the latest edit, bulk action or merge not yet undone. */
  async function undo(doc: repo.DocumentRecord, actor: Actor) {
    requireRows(doc);
    const before = await repo.popEdit<repo.RowRecord>(database, doc.id);
    if (!before) throw errors.conflict('NOTHING_TO_UNDO', 'There is no edit to undo');
    await repo.saveRowStates(database, before);
    await history(doc.id, actor, 'undone', { count: before.length });
    await revalidate(await reload(doc.id), actor);
    return repo.rowsOf(database, doc.id);
  }

  /**
   * Merges a duplicate: into the participant it repeats (the row becomes that participant), or
   * into the row it repeats (empty cells of the original are filled from it, then it is rejected).
   */
  async function merge(doc: repo.DocumentRecord, rowId: string, actor: Actor) {
    requireRows(doc);
    const rows = new Map((await repo.rowsOf(database, doc.id)).map((r) => [r.id, r]));
    const row = rows.get(rowId);
    if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${rowId}' in this document`);
    if (row.decision !== 'pending' || !row.duplicateOf)
      throw errors.conflict('NOT_A_DUPLICATE', `Row ${row.position} is not a pending duplicate`);
    const dup = row.duplicateOf;
    const changed: repo.RowRecord[] = [];
    if (dup.kind === 'participant') {
      changed.push({
        ...row,
        decision: 'confirmed',
        reason: repo.MERGED,
        participantId: (await repo.participantIds(database, dup.raceId, [dup.bib])).get(dup.bib) ?? null,
        participantRaceId: dup.raceId,
        participantBib: dup.bib,
      });
    } else if (dup.kind === 'row') {
      const original = rows.get(dup.rowId);
      if (original && original.decision === 'pending') {
        const fields = { ...original.fields };
        for (const [k, v] of Object.entries(row.fields) as [keyof Fields, string][])
          if (!fields[k] && v) fields[k] = v;
        changed.push({ ...original, fields });
      }
      changed.push({ ...row, decision: 'rejected', reason: `merged into row ${dup.position}` });
    } else {
      changed.push({
        ...row,
        decision: 'rejected',
        reason: `merged into ${dup.documentTitle} row ${dup.position}`,
      });
    }
    await saveStep(doc, changed, rows, actor, 'merged', { position: row.position, into: dup });
    return repo.rowsOf(database, doc.id);
  }

  /** Stores changed rows as one undo step, writes the history, and validates again. */
  async function saveStep(
    doc: repo.DocumentRecord,
    changed: repo.RowRecord[],
    rows: Map<string, repo.RowRecord>,
    actor: Actor,
    action: string,
    detailOf: object,
  ) {
    await database.transaction(async (sql) => {
      await repo.pushEdit(
        sql,
        doc.id,
        changed.map((r) => rows.get(r.id)!),
      );
      await repo.saveRowStates(sql, changed);
      await history(doc.id, actor, action, detailOf, sql);
    });
    await revalidate(await reload(doc.id), actor);
  }

  return { edit, bulk, undo, merge };
}
