import type {
  ChipImportOutcome,
  ConsoleParticipant,
  ImportOutcome,
  ImportPreview,
  NewParticipant,
  ParticipantAuditEntry,
  ParticipantBulkOutcome,
  UploadInfo,
} from '@tempora/contracts';
import type { Database, Sql } from '../../db/database.ts';
import { AppError, errors } from '../../errors.ts';
import { unknownColumns } from '../../lib/tabular/columns.ts';
import type { Sheet } from '../../lib/tabular/read.ts';
import { readSheetsOffThread } from '../../lib/tabular/read-offloaded.ts';
import type { RealtimePublisher } from '../../realtime/adapters/types.ts';
import { insertParticipants, randomKey } from '../results/port.ts';
import * as history from './history-repository.ts';
import {
  columnSamples,
  fold,
  guessMapping,
  type ImportedPerson,
  type Mapping,
  personKey,
  validateRowsAsync,
} from './mapping.ts';
import * as repo from './repository.ts';

/** Who acts, for the audit. */
export interface Actor {
  sub: string | null;
  email: string;
}

/**
 * Rows per insert statement of an import (progress is published after each, then a turn of the
 * event loop). PGlite runs a statement synchronously: 2,500 rows held `/api/health` for up to 5 s
 * on the loaded bench machine (`npm run bench -- import`), 250 for up to 200 ms; 100 keeps each
 * stall within a few tens of milliseconds.
 */
const IMPORT_CHUNK = 100;
/** Parsed uploads kept in memory (a 45,000-row XLSX takes seconds to read). */
const PARSED_CACHE = 4;

/**
 * The participants service (style.md: a factory taking its database and publisher): the grid's
 * writes with their audit, uploads parsed once and validated against the race, imports in
 * chunks publishing their progress, bibs from a range, chip files. After every change the
 * results module reloads the context (`reload`, its one reload command), so start lists show the new runners.
 */
export function createParticipantsService(deps: {
  database: Database;
  publisher: RealtimePublisher;
  /** The results module's reload command (`app.results.reload`). */
  reload: (db: string) => Promise<void>;
}) {
  const { database, publisher, reload } = deps;
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

  async function race(eventId: string, raceId: string) {
    const races = await repo.racesOfEvent(database, eventId);
    const found = races.find((r) => r.id === raceId);
    if (!found) throw errors.notFound('RACE_NOT_FOUND', `No race '${raceId}' in this event`);
    return found;
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

  async function store(
    sql: Sql,
    raceId: string,
    people: readonly ImportedPerson[],
    actor: Actor,
    action: 'create' | 'import',
  ) {
    const rows = people.map((p) => ({
      raceId,
      bib: p.bib,
      firstName: p.firstName,
      lastName: p.lastName,
      gender: p.gender,
      ...(p.age !== null ? { age: p.age } : {}),
      ...(p.birthDate ? { birthDate: p.birthDate } : {}),
      nationality: p.nationality,
      club: p.club,
      email: p.email,
      chips: p.chips,
      ...(p.wave ? { wave: p.wave } : {}),
      ...(p.category ? { category: p.category } : {}),
      status: 'registered' as const,
      trackingKey: randomKey(),
    }));
    await insertParticipants(sql, rows);
    await repo.auditImported(
      sql,
      rows.map((r) => r.trackingKey),
      action,
      actor,
    );
    return rows;
  }

  return {
    /** Stores an uploaded file and reads it once (its sheets, headers and a sample). */
    async upload(
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
      return this.info(event, id);
    },

    async info(event: { id: string; organisationId: string }, uploadId: string): Promise<UploadInfo> {
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
    },

    /** Every row's errors and warnings, nothing stored. */
    async preview(
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
    },

    /**
     * Imports the valid rows (`valid`) or every row (`all`: refused with 422 when one has an
     * error, nothing stored). One transaction; progress on `import-{uploadId}` after each chunk.
     */
    async commit(
      event: { id: string; organisationId: string },
      uploadId: string,
      request: {
        sheet?: string | undefined;
        raceId: string;
        mapping: Mapping;
        dateOrder: 'dmy' | 'mdy';
        mode: 'valid' | 'all';
      },
      actor: Actor,
    ): Promise<ImportOutcome> {
      const { people, rows, race, sheet } = await validate(event.id, uploadId, request);
      const invalid = rows.length - people.length;
      if (request.mode === 'all' && invalid > 0)
        throw new AppError(
          422,
          'IMPORT_HAS_ERRORS',
          `${invalid} row(s) have errors: nothing imported`,
          rows
            .filter((r) => r.errors.length)
            .slice(0, 1000)
            .map((r) => ({ field: `line ${r.line}`, message: r.errors.map((e) => e.code).join(', ') })),
        );
      if (!people.length) throw new AppError(422, 'IMPORT_EMPTY', 'No valid row to import');
      const channel = `import-${uploadId}`;
      const progress = (done: number) =>
        publisher.publish([channel], 'progress', { done, total: people.length }).catch(() => undefined);
      await progress(0);
      // The refused rows as the file held them (rows and sheet rows are in the same order).
      const refused = rows.flatMap((r, k) =>
        r.errors.length ? [{ line: r.line, cells: sheet.rows[k]?.cells ?? [], errors: r.errors }] : [],
      );
      const [upload] = await database.query<{ fileName: string }>(
        'SELECT file_name AS "fileName" FROM import_uploads WHERE id = $1',
        [uploadId],
      );
      const importId = await database.transaction(async (sql) => {
        const id = await history.insertImport(sql, {
          eventId: event.id,
          raceId: race.id,
          fileName: upload?.fileName ?? '',
          header: sheet.header,
          refused,
          imported: people.length,
          total: rows.length,
          actor,
        });
        for (let k = 0; k < people.length; k += IMPORT_CHUNK) {
          const stored = await store(sql, race.id, people.slice(k, k + IMPORT_CHUNK), actor, 'import');
          await history.addCreated(
            sql,
            id,
            stored.map((r) => r.trackingKey),
          );
          if ((k / IMPORT_CHUNK) % 25 === 24 || k + IMPORT_CHUNK >= people.length)
            await progress(Math.min(k + IMPORT_CHUNK, people.length));
          await new Promise((resolve) => setImmediate(resolve));
        }
        await repo.bumpEpoch(sql, [race.id]);
        await repo.saveMapping(sql, event.organisationId, 'participants', request.mapping);
        return id;
      });
      await reload(race.db);
      return { importId, imported: people.length, skipped: invalid, total: rows.length };
    },

    /** Adds one runner (bib unique in its race among those not deleted). */
    async add(eventId: string, input: NewParticipant & { raceId: string }, actor: Actor) {
      const target = await race(eventId, input.raceId);
      const person: ImportedPerson = {
        line: 0,
        bib: input.bib ?? null,
        firstName: input.firstName,
        lastName: input.lastName,
        gender: input.gender,
        birthDate: input.birthDate ?? null,
        age: input.age ?? null,
        club: input.club ?? '',
        nationality: input.nationality ?? '',
        email: input.email ?? '',
        chips: input.chips ?? [],
        category: input.category ?? null,
        wave: input.wave ?? null,
      };
      const stored = await database.transaction(async (sql) => {
        if (person.bib) await requireFreeBib(sql, target.id, person.bib, null);
        const rows = await store(sql, target.id, [person], actor, 'create');
        await repo.bumpEpoch(sql, [target.id]);
        return rows[0]!;
      });
      await reload(target.db);
      const [row] = await database.query<{ id: string }>(
        'SELECT id FROM participants WHERE tracking_key = $1',
        [stored.trackingKey],
      );
      return (await repo.findParticipant(database, eventId, row!.id))!;
    },

    /** Changes fields of a runner, writing each change (before/after) to the audit. */
    async update(eventId: string, id: string, patch: Record<string, unknown>, actor: Actor) {
      const current = await repo.findParticipant(database, eventId, id);
      if (!current) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No participant '${id}'`);
      const changes = Object.entries(patch)
        .filter(
          ([field, after]) =>
            JSON.stringify((current as Record<string, unknown>)[field] ?? null) !==
            JSON.stringify(after ?? null),
        )
        .map(([field, after]) => ({
          field,
          before: (current as Record<string, unknown>)[field] ?? null,
          after,
        }));
      if (!changes.length) return current;
      await database.transaction(async (sql) => {
        if (typeof patch.bib === 'string') await requireFreeBib(sql, current.raceId, patch.bib, id);
        if (Array.isArray(patch.chips))
          await requireFreeChips(sql, current.raceId, patch.chips as string[], id);
        await repo.updateParticipant(sql, id, Object.fromEntries(changes.map((c) => [c.field, c.after])));
        await repo.insertAudit(
          sql,
          [{ participantId: id, raceId: current.raceId, action: 'update', changes }],
          actor,
        );
        await repo.bumpEpoch(sql, [current.raceId]);
      });
      await reload(current.db);
      return (await repo.findParticipant(database, eventId, id))!;
    },

    /**
     * One change for a selection (issue 29): race, category, status and/or club. Runners it
     * cannot apply to are refused one by one with the reason (another race: the bib taken there,
     * or passings already read in this one); the others change in one transaction, each change
     * audited (who, when, before → after). Both races' live states are reloaded.
     */
    async bulkUpdate(
      eventId: string,
      ids: readonly string[],
      patch: { raceId?: string; category?: string | null; status?: string; club?: string },
      actor: Actor,
    ): Promise<ParticipantBulkOutcome> {
      const target = patch.raceId ? await race(eventId, patch.raceId) : null;
      const refused: ParticipantBulkOutcome['refused'] = [];
      const apply: { current: ConsoleParticipant & { db: string }; changes: AuditChange[] }[] = [];
      let unchanged = 0;
      const seenBibs = new Set<string>();
      for (const id of new Set(ids)) {
        const current = await repo.findParticipant(database, eventId, id);
        if (!current) {
          refused.push({ id, name: '', bib: null, code: 'PARTICIPANT_NOT_FOUND', message: 'not found' });
          continue;
        }
        const refuse = (code: string, message: string) =>
          refused.push({
            id,
            name: `${current.firstName} ${current.lastName}`,
            bib: current.bib,
            code,
            message,
          });
        const changes: AuditChange[] = Object.entries(patch)
          .filter(
            ([field, after]) =>
              JSON.stringify((current as Record<string, unknown>)[field] ?? null) !==
              JSON.stringify(after ?? null),
          )
          .map(([field, after]) => ({
            field,
            before: (current as Record<string, unknown>)[field] ?? null,
            after,
          }));
        if (!changes.length) {
          unchanged++;
          continue;
        }
        if (target && target.id !== current.raceId) {
          const passings = await repo.passingCount(database, current.db, current.bib, current.chips);
          if (passings > 0) {
            refuse('PARTICIPANT_HAS_PASSINGS', `${passings} passing(s) read in ${current.raceId}`);
            continue;
          }
          if (current.bib) {
            const [taken] = await database.query(
              'SELECT 1 FROM participants WHERE race_id = $1 AND bib = $2 AND deleted_at IS NULL',
              [target.id, current.bib],
            );
            if (taken || seenBibs.has(current.bib)) {
              refuse('BIB_TAKEN', `bib ${current.bib} is already taken in ${target.id}`);
              continue;
            }
            seenBibs.add(current.bib);
          }
        }
        apply.push({ current, changes });
      }
      if (apply.length) {
        await database.transaction(async (sql) => {
          for (const { current, changes } of apply) {
            const values = Object.fromEntries(changes.map((c) => [c.field, c.after]));
            await repo.updateParticipant(sql, current.id, values);
            if (typeof values.raceId === 'string')
              await sql.query('UPDATE participants SET race_id = $2 WHERE id = $1', [
                current.id,
                values.raceId,
              ]);
          }
          await repo.insertAudit(
            sql,
            apply.map(({ current, changes }) => ({
              participantId: current.id,
              raceId: target?.id ?? current.raceId,
              action: 'update' as const,
              changes,
            })),
            actor,
          );
          await repo.bumpEpoch(sql, [
            ...new Set([...apply.map((a) => a.current.raceId), ...(target ? [target.id] : [])]),
          ]);
        });
        for (const db of new Set([...apply.map((a) => a.current.db), ...(target ? [target.db] : [])]))
          await reload(db);
      }
      return { updated: apply.length, unchanged, refused };
    },

    /** Soft-deletes a runner who has no passings (409 PARTICIPANT_HAS_PASSINGS otherwise). */
    async remove(eventId: string, id: string, actor: Actor) {
      const current = await repo.findParticipant(database, eventId, id);
      if (!current) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No participant '${id}'`);
      const passings = await repo.passingCount(database, current.db, current.bib, current.chips);
      if (passings > 0)
        throw errors.conflict(
          'PARTICIPANT_HAS_PASSINGS',
          `This runner has ${passings} passing(s): set a status instead`,
        );
      await database.transaction(async (sql) => {
        await repo.softDelete(sql, id);
        await repo.insertAudit(
          sql,
          [{ participantId: id, raceId: current.raceId, action: 'delete', changes: [] }],
          actor,
        );
        await repo.bumpEpoch(sql, [current.raceId]);
      });
      await reload(current.db);
    },

    /** Gives runners without a bib the free bibs of the range (remembered as the race's range). */
    async assignBibs(eventId: string, input: { raceId: string; first: number; last: number }, actor: Actor) {
      const target = await race(eventId, input.raceId);
      const result = await database.transaction(async (sql) => {
        await repo.setBibRange(sql, target.id, input.first, input.last);
        const out = await repo.assignBibs(sql, target.id, input.first, input.last);
        await repo.insertAudit(
          sql,
          out.assigned.map((a) => ({
            participantId: a.id,
            raceId: target.id,
            action: 'bib' as const,
            changes: [{ field: 'bib', before: null, after: a.bib }],
          })),
          actor,
        );
        if (out.assigned.length) await repo.bumpEpoch(sql, [target.id]);
        return out;
      });
      await reload(target.db);
      return { assigned: result.assigned.length, left: result.left };
    },

    /**
     * A chip↔bib file: one or two chips per bib. Reports unknown bibs and chips used twice (in
     * the file or by another runner of the race); with `apply`, sets the chips of the rows
     * without problem.
     */
    async chips(
      eventId: string,
      uploadId: string,
      request: {
        sheet?: string | undefined;
        raceId: string;
        mapping: { bib: string; chip: string; chip2?: string | undefined };
        apply: boolean;
      },
      actor: Actor,
    ): Promise<ChipImportOutcome> {
      const { sheets } = await sheetsOf(eventId, uploadId);
      const sheet = pickSheet(sheets, request.sheet);
      checkMapping(sheet, request.mapping);
      const target = await race(eventId, request.raceId);
      const runners = await repo.bibsAndChips(database, target.id);
      const byBib = new Map(runners.map((r) => [r.bib, r]));
      const col = (name: string | undefined) => (name === undefined ? -1 : sheet.header.indexOf(name));
      const [bibC, chipC, chip2C] = [
        col(request.mapping.bib),
        col(request.mapping.chip),
        col(request.mapping.chip2),
      ];
      const owner = new Map<string, string>();
      const fileBibs = new Set<string>();
      const issues: ChipImportOutcome['issues'] = [];
      const updates: { id: string; bib: string; chips: string[]; before: string[] }[] = [];
      for (const { line, cells } of sheet.rows) {
        const bib = cells[bibC] ?? '';
        const chips = [cells[chipC] ?? '', chip2C >= 0 ? (cells[chip2C] ?? '') : ''].filter(Boolean);
        if (!bib || !chips.length) {
          issues.push({ line, code: 'MISSING_FIELD', bib, chip: chips.join(' ') });
          continue;
        }
        const runner = byBib.get(bib);
        if (!runner) {
          issues.push({ line, code: 'UNKNOWN_BIB', bib, chip: chips.join(' ') });
          continue;
        }
        const twice = chips.find((c) => owner.has(c) && owner.get(c) !== bib);
        if (twice) {
          issues.push({ line, code: 'CHIP_USED_TWICE', bib, chip: twice });
          continue;
        }
        for (const c of chips) owner.set(c, bib);
        fileBibs.add(bib);
        updates.push({ id: runner.id, bib, chips, before: runner.chips });
      }
      // A chip kept by a runner the file does not mention is used twice too.
      for (const r of runners) {
        if (fileBibs.has(r.bib)) continue;
        for (const c of r.chips) {
          const other = owner.get(c);
          if (other) {
            const k = updates.findIndex((u) => u.bib === other);
            issues.push({ line: 0, code: 'CHIP_USED_TWICE', bib: r.bib, chip: c });
            if (k >= 0) updates.splice(k, 1);
          }
        }
      }
      if (request.apply && updates.length) {
        await database.transaction(async (sql) => {
          await repo.setChips(sql, updates);
          await repo.insertAudit(
            sql,
            updates.map((u) => ({
              participantId: u.id,
              raceId: target.id,
              action: 'chip' as const,
              changes: [{ field: 'chips', before: u.before, after: u.chips }],
            })),
            actor,
          );
          await repo.bumpEpoch(sql, [target.id]);
        });
        await reload(target.db);
      }
      issues.sort((a, b) => a.line - b.line);
      return { rows: sheet.rows.length, applied: request.apply ? updates.length : 0, issues };
    },
  };
}

/** 409 BIB_TAKEN when another runner of the race (not deleted) has the bib. */
async function requireFreeBib(sql: Sql, raceId: string, bib: string, self: string | null) {
  const taken = await sql.query(
    'SELECT 1 FROM participants WHERE race_id = $1 AND bib = $2 AND deleted_at IS NULL AND id IS DISTINCT FROM $3::uuid',
    [raceId, bib, self],
  );
  if (taken.length) throw errors.conflict('BIB_TAKEN', `Bib ${bib} is already taken in this race`);
}

/**
 * Chips must be unique among the race's runners (the rule of the chip file, issue 14), and a
 * runner's two chips must differ: 409 CHIP_TAKEN naming the chip and its runner's bib.
 */
async function requireFreeChips(sql: Sql, raceId: string, chips: readonly string[], self: string) {
  if (new Set(chips).size !== chips.length)
    throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
      { field: 'chips', message: 'the same chip twice' },
    ]);
  if (!chips.length) return;
  const [taken] = await sql.query<{ bib: string | null; chip: string }>(
    `SELECT bib, chip FROM participants, unnest(chips) AS chip
      WHERE race_id = $1 AND deleted_at IS NULL AND id <> $2::uuid AND chip = ANY($3::text[]) LIMIT 1`,
    [raceId, self, chips],
  );
  if (taken)
    throw errors.conflict('CHIP_TAKEN', `Chip ${taken.chip} is already the chip of bib ${taken.bib ?? '—'}`);
}

type AuditChange = ParticipantAuditEntry['changes'][number];

export type ParticipantsService = ReturnType<typeof createParticipantsService>;
