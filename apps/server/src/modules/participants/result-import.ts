import type { ResultImportOutcome, resultImportQuerySchema } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { AppError, errors } from '../../errors.ts';
import { parseCsv } from '../../lib/csv.ts';
import type { EventOwner } from '../../policy/policy.ts';
import * as results from '../results/port.ts';
import { importBostonList, parseWaves, passingsFromCsv } from '../results/port.ts';
import type { Actor } from './service.ts';

/**
 * A result list into a context of the event (issue 14: "result-list imports move into the
 * console"): a Boston-format file becomes a new race named, dated and timed by the organiser; a
 * passings file is read through a column mapping (all or nothing, every bad row listed with the
 * count of refused rows).
 */
export async function importResultList(
  app: FastifyInstance,
  event: EventOwner,
  query: z.output<typeof resultImportQuerySchema>,
  text: string,
  actor: Actor,
): Promise<ResultImportOutcome> {
  const context = await results.findContext(app.database, query.db);
  if (!context || context.eventId !== event.id)
    throw errors.notFound('CONTEXT_NOT_FOUND', `No context '${query.db}' in this event`);
  if (query.format === 'boston') {
    const missing = (['name', 'date', 'gun'] as const)
      .filter((k) => query[k] === undefined)
      .map((field): { field: string; message: string } => ({ field, message: 'required for a result list' }));
    const waves = parseWaves(query.waves);
    if (waves === null)
      missing.push({ field: 'waves', message: 'expected firstBib-lastBib@ISO time, comma separated' });
    if (missing.length) throw errors.badRequest('VALIDATION_FAILED', 'Invalid query', missing);
    const out = await importBostonList(app.database, query.db, await parseCsv(text), {
      name: query.name!,
      date: query.date!,
      gunTime: Date.parse(query.gun!),
      waves: waves!,
    });
    await app.results.reload(query.db);
    return out;
  }
  if (!query.time || (!query.bib && !query.chip))
    throw errors.badRequest('VALIDATION_FAILED', 'Invalid query', [
      { field: query.time ? 'bib' : 'time', message: 'map the time and a bib or chip column' },
    ]);
  const dayStart = query.day ? Date.parse(`${query.day}T00:00:00Z`) : null;
  let incoming: Awaited<ReturnType<typeof passingsFromCsv>>;
  try {
    incoming = await passingsFromCsv(
      text,
      { time: query.time, bib: query.bib, chip: query.chip, point: query.point },
      query.defaultPoint ?? null,
      dayStart,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'CSV_ROWS_INVALID') {
      const bad = error.errors ?? [];
      throw new AppError(422, 'IMPORT_ROWS_REFUSED', `${error.message}: nothing imported`, bad);
    }
    throw error;
  }
  // Through the race-day ingest: duplicates as for any read, and a read clears a DNS (issue 26).
  const outcome = await app.raceday.service.ingest(query.db, incoming, 'import', { createdBy: actor.sub });
  return { passings: (outcome as { accepted: number }).accepted, refused: 0, issues: [] };
}
