import type { ImportPreview, UploadInfo } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import { unknownColumns } from '../../../lib/tabular/columns.ts';
import type { Sheet } from '../../../lib/tabular/read.ts';
import { readSheetsOffThread } from '../../../lib/tabular/read-offloaded.ts';
import { columnSamples, fold, guessMapping, type Mapping, personKey, validateRowsAsync } from '../mapping.ts';
import * as repo from '../repository.ts';
import type { Actor, ParticipantsContext } from './shared.ts';

/** Parsed uploads kept in memory (a 45,000-row XLSX takes seconds to read). */
const PARSED_CACHE = 4;

/**
 * Uploaded files (issue 14): stored, parsed once (off the main thread, a few kept in memory),
 * shown with their sheets, a sample and a guessed mapping, and their rows validated against the
 * race — nothing stored until an import commits them.
 */
export function createUploads(ctx: ParticipantsContext) {
  const { database, race } = ctx;
  const parsed = new Map<string, Promise<{ format: 'csv' | 'xlsx'; sheets: Sheet[] }>>();

  async function sheetsOf(eventId: string, uploadId: string) {
    let entry = parsed.get(uploadId);
    if (!entry) {
      const upload = await repo.findUpload(database, eventId, uploadId);
      if (!upload) throw errors.notFound('UPLOAD_NOT_FOUND', `No upload '${uploadId}'`);
      entry = readSheetsOffThread(upload.data, upload.fileName);
      parsed.set(uploadId, entry);
      entry.catch(() => parsed.delete(uploadId));
      while (parsed.size > PARSED_CACHE) parsed.delete(parsed.keys().next().value as string);
    } else {
      // Still an upload of this event?
      const upload = await database.query('SELECT 1 FROM import_uploads WHERE id = $1 AND event_id = $2', [
        uploadId,
        eventId,
      ]);
      if (!upload.length) throw errors.notFound('UPLOAD_NOT_FOUND', `No upload '${uploadId}'`);
    }
    return entry;
  }

  function pickSheet(sheets: Sheet[], name: string | undefined): Sheet {
    const sheet = name === undefined ? sheets[0] : sheets.find((s) => s.name === name);
    if (!sheet) throw errors.badRequest('SHEET_NOT_FOUND', `No sheet '${name}' in the file`);
    return sheet;
  }

  function checkMapping(sheet: Sheet, mapping: Record<string, string | undefined>) {
    const missing = unknownColumns(sheet.header, mapping, {
      fieldPrefix: 'mapping.',
      where: ' in the sheet',
    });
    if (missing.length)
      throw errors.badRequest('MAPPING_INVALID', 'The mapping names unknown columns', missing);
  }

  async function validate(
    eventId: string,
    uploadId: string,
    request: { sheet?: string | undefined; raceId: string; mapping: Mapping; dateOrder: 'dmy' | 'mdy' },
  ) {
    const { sheets } = await sheetsOf(eventId, uploadId);
    const sheet = pickSheet(sheets, request.sheet);
    checkMapping(sheet, request.mapping);
    const target = await race(eventId, request.raceId);
    const facts = await repo.existingFacts(database, eventId, target.id);
    const result = await validateRowsAsync(
      sheet.header,
      sheet.rows,
      request.mapping,
      {
        date: target.date,
        categories: target.categories,
        bibs: new Map(facts.bibs.map((b) => [b.bib, b.name])),
        people: new Set(facts.people.filter((p) => p.b).map((p) => personKey(p.f, p.l, p.b))),
        emails: new Set(facts.people.filter((p) => p.e).map((p) => fold(p.e))),
      },
      request.dateOrder,
    );
    return { ...result, race: target, sheet };
  }

  /** Stores an uploaded file and reads it once (its sheets, headers and a sample). */
  async function upload(
    event: { id: string; organisationId: string },
    fileName: string,
    data: Buffer,
    actor: Actor,
  ): Promise<UploadInfo> {
    if (!data.length) throw errors.badRequest('FILE_EMPTY', 'The file is empty');
    const read = await readSheetsOffThread(data, fileName);
    const id = await repo.insertUpload(database, {
      eventId: event.id,
      fileName,
      format: read.format,
      data,
      createdBy: actor.sub,
    });
    parsed.set(id, Promise.resolve(read));
    while (parsed.size > PARSED_CACHE) parsed.delete(parsed.keys().next().value as string);
    return info(event, id);
  }

  async function info(event: { id: string; organisationId: string }, uploadId: string): Promise<UploadInfo> {
    const upload = await database.query<{ fileName: string }>(
      'SELECT file_name AS "fileName" FROM import_uploads WHERE id = $1',
      [uploadId],
    );
    const { format, sheets } = await sheetsOf(event.id, uploadId);
    const remembered = (await repo.getMapping(
      database,
      event.organisationId,
      'participants',
    )) as Mapping | null;
    return {
      id: uploadId,
      fileName: upload[0]?.fileName ?? '',
      format,
      sheets: sheets.map((s) => ({
        name: s.name,
        header: s.header,
        rows: s.rows.length,
        sample: s.rows.slice(0, 5).map((r) => r.cells),
        columnSamples: columnSamples(s.header, s.rows),
        guess: guessMapping(s.header, remembered),
      })),
      rememberedMapping: remembered,
    };
  }

  /** Every row's errors and warnings, nothing stored. */
  async function preview(
    eventId: string,
    uploadId: string,
    request: { sheet?: string | undefined; raceId: string; mapping: Mapping; dateOrder: 'dmy' | 'mdy' },
  ): Promise<ImportPreview> {
    const { rows, people, race: target } = await validate(eventId, uploadId, request);
    const problems = rows.filter((r) => r.errors.length || r.warnings.length);
    const invalid = rows.filter((r) => r.errors.length).length;
    const summary = (await repo.raceSummaries(database, eventId)).find((r) => r.id === target.id);
    return {
      race: {
        withoutBib: people.filter((p) => !p.bib).length,
        bibRange: summary?.bibRange ?? null,
        categories: target.categories.length,
      },
      total: rows.length,
      valid: rows.length - invalid,
      invalid,
      warned: rows.filter((r) => !r.errors.length && r.warnings.length).length,
      problems,
      sample: rows.filter((r) => !r.errors.length).slice(0, 20),
    };
  }

  return { sheetsOf, pickSheet, checkMapping, validate, upload, info, preview };
}

export type Uploads = ReturnType<typeof createUploads>;
