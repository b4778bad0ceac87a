import type { ImportOutcome } from '@tempora/contracts';
import { AppError } from '../../../errors.ts';
import { isOfficial } from '../../results/port.ts';
import * as history from '../history-repository.ts';
import type { Mapping } from '../mapping.ts';
import * as repo from '../repository.ts';
import type { Actor, ParticipantsContext } from './shared.ts';
import type { Uploads } from './uploads.ts';

/**
 * Rows per insert statement of an import (progress is published after each, then a turn of the
 * event loop). PGlite runs a statement synchronously: 2,500 rows held `/api/health` for up to 5 s
 * on the loaded bench machine (`npm run bench -- import`), 250 for up to 200 ms; 100 keeps each
 * stall within a few tens of milliseconds.
 */
const IMPORT_CHUNK = 100;

/**
 * An upload's import (issue 14): its valid rows stored as runners in chunks, in one
 * transaction, with its history (the refused rows as the file held them) and its progress
 * published; the mapping remembered for the organisation.
 */
export function createImports(ctx: ParticipantsContext, uploads: Uploads) {
  const { database, publisher, reload, store } = ctx;
  const { validate } = uploads;

  /**
   * Imports the valid rows (`valid`) or every row (`all`: refused with 422 when one has an
   * error, nothing stored). One transaction; progress on `import-{uploadId}` after each chunk.
   */
  async function commit(
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
    // Issue 43, "official means official": runners added to a race whose results are published
    // could take reads already stored (a bib read before it was anyone's) and move the ranks
    // silently. Decision: an import into an official race is refused, nothing stored; the
    // organiser re-opens the results as provisional (with a reason, seen by spectators) first.
    const [published] = await database.query<{ rules: Record<string, unknown> | null; name: string }>(
      'SELECT rules, name FROM races WHERE id = $1',
      [race.id],
    );
    if (isOfficial(published?.rules))
      throw new AppError(
        409,
        'RACE_OFFICIAL',
        `The results of '${published?.name ?? race.id}' are official: re-open them as provisional before importing runners`,
        [{ field: 'raceId', message: race.id }],
      );
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
  }

  return { commit };
}
