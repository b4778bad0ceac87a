import type { DocumentDetail } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import { unknownColumns } from '../../../lib/tabular/columns.ts';
import { diffVersions } from '../diff.ts';
import { readFile, splitSheet } from '../parse.ts';
import * as repo from '../repository.ts';
import { type Fields, mapRow } from '../validate.ts';
import { type Actor, type ConfirmationContext, requireOpen, senderKey } from './shared.ts';
import type { Validation } from './validation.ts';
import type { Views } from './views.ts';

/**
 * A document's file and mapping (issue 17): each upload a new version, its sheet's columns
 * mapped to fields (remembered per sender), and the rows built from them — compared with the
 * previous version, keeping decisions — then validated.
 */
export function createFiles(ctx: ConfirmationContext, views: Views, validation: Validation) {
  const { database, history, reload } = ctx;
  const { detail } = views;
  const { revalidate } = validation;

  /** Builds a document's rows from its file version and mapping, keeping decisions (diff). */
  async function buildRows(doc: repo.DocumentRecord, actor: Actor) {
    const cells = await repo.fileCells(database, doc.id, doc.version);
    const sheet = cells?.[doc.sheet ?? ''];
    if (!sheet) throw errors.badRequest('SHEET_NOT_FOUND', `No sheet '${doc.sheet}' in the file`);
    const { headers, data } = splitSheet(sheet);
    const next = data.map((raw) => ({ raw, fields: mapRow(raw, headers, doc.mapping) }));
    const previous = await repo.rowsOf(database, doc.id);
    const { rows, diff } = diffVersions(previous, next, doc.version);
    const newVersion = doc.rowsVersion !== doc.version && doc.rowsVersion > 0;
    await database.transaction(async (sql) => {
      await repo.replaceRows(
        sql,
        doc.id,
        rows.map((r) => ({ ...r, change: newVersion ? r.change : null })),
      );
      await repo.updateDocument(sql, doc.id, {
        status: 'mapped',
        rowsVersion: doc.version,
        headers,
        ...(newVersion ? { diff } : {}),
      });
      await repo.clearEdits(sql, doc.id);
      await history(doc.id, actor, 'mapped', { rows: rows.length, version: doc.version }, sql);
      if (newVersion)
        await history(
          doc.id,
          actor,
          'diff',
          {
            version: doc.version,
            added: diff.added.length,
            removed: diff.removed.length,
            changed: diff.changed.length,
          },
          sql,
        );
    });
    await revalidate(await reload(doc.id), actor);
  }

  /**
   * A new version of the document's file. The first sheet is chosen; with a mapping already
   * known (this document's, else the sender's) whose columns all exist, rows are built and
   * validated at once, compared with the previous version.
   */
  async function upload(
    doc: repo.DocumentRecord,
    bytes: Buffer,
    name: string,
    actor: Actor,
  ): Promise<DocumentDetail> {
    requireOpen(doc);
    const file = await readFile(bytes);
    const sheets = Object.entries(file.sheets).map(([name, rows]) => ({
      name,
      headers: splitSheet(rows).headers,
    }));
    const version = doc.version + 1;
    const sheet = doc.sheet && file.sheets[doc.sheet] ? doc.sheet : sheets[0]!.name;
    const { headers } = splitSheet(file.sheets[sheet]!);
    const known = Object.keys(doc.mapping).length
      ? doc.mapping
      : await repo.mappingOf(database, senderKey(doc));
    const usable =
      Object.keys(known).length > 0 && Object.values(known).every((h) => headers.includes(h as string));
    await database.transaction(async (sql) => {
      await repo.insertFile(sql, {
        documentId: doc.id,
        version,
        name,
        kind: file.kind,
        content: bytes,
        cells: file.sheets,
        by: actor.sub,
      });
      await repo.updateDocument(sql, doc.id, {
        version,
        sheet,
        sheets,
        headers,
        status: 'uploaded',
        mapping: usable ? known : doc.mapping,
      });
      await history(
        doc.id,
        actor,
        'uploaded',
        { version, name, kind: file.kind, rows: file.sheets[sheet]!.length - 1 },
        sql,
      );
    });
    if (usable) await buildRows(await reload(doc.id), actor);
    return detail(await reload(doc.id));
  }

  /** Chooses the sheet and maps its columns (remembered for the sender), then validates. */
  async function setMapping(
    doc: repo.DocumentRecord,
    input: { sheet?: string | undefined; mapping: Fields; defaultRaceId?: string | null | undefined },
    actor: Actor,
  ): Promise<DocumentDetail> {
    requireOpen(doc);
    if (doc.version === 0) throw errors.conflict('NO_FILE', 'Upload a file first');
    const sheet = input.sheet ?? doc.sheet ?? '';
    if (!doc.sheets.some((s) => s.name === sheet))
      throw errors.badRequest('SHEET_NOT_FOUND', `No sheet '${sheet}' in the file`);
    const cells = await repo.fileCells(database, doc.id, doc.version);
    const { headers } = splitSheet(cells?.[sheet] ?? []);
    const unknown = unknownColumns(headers, input.mapping, { fieldPrefix: 'mapping.' });
    if (unknown.length)
      throw errors.badRequest(
        'MAPPING_INVALID',
        'The mapping names columns the sheet does not have',
        unknown,
      );
    if (!input.mapping.firstName || !input.mapping.lastName)
      throw errors.badRequest('MAPPING_INVALID', 'Map at least the first and last name columns', [
        { field: 'mapping', message: 'firstName and lastName are required' },
      ]);
    if (input.defaultRaceId) {
      const race = await repo.findRace(database, input.defaultRaceId);
      if (!race || race.eventId !== doc.eventId)
        throw errors.badRequest('RACE_NOT_FOUND', `No race '${input.defaultRaceId}' in this event`);
    }
    await repo.updateDocument(database, doc.id, {
      sheet,
      headers,
      mapping: input.mapping,
      ...(input.defaultRaceId !== undefined ? { defaultRaceId: input.defaultRaceId } : {}),
    });
    await repo.rememberMapping(database, senderKey(doc), input.mapping);
    await buildRows(await reload(doc.id), actor);
    return detail(await reload(doc.id));
  }

  return { upload, setMapping };
}
