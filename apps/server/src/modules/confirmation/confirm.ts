import type { Gender, Participant } from '@tempora/domain';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { parseDate, parseGender } from '../../lib/tabular/validate.ts';
import { insertParticipants, randomKey } from '../results/port.ts';
import * as repo from './repository.ts';
import type { Actor, ConfirmationService } from './service.ts';
import { raceOfRow } from './validate.ts';

/**
 * The bibs to give `count` runners of a race: the lowest free numbers of its confirmation range,
 * or, without a range, the numbers after the highest numeric bib already given. Null when the
 * range has too few free numbers left.
 */
export function nextBibs(
  count: number,
  taken: ReadonlySet<string>,
  range: { from: number | null; to: number | null },
): string[] | null {
  const out: string[] = [];
  if (range.from !== null && range.to !== null) {
    for (let n = range.from; n <= range.to && out.length < count; n++)
      if (!taken.has(String(n))) out.push(String(n));
    return out.length === count ? out : null;
  }
  let highest = (range.from ?? 1) - 1;
  for (const bib of taken) if (/^\d+$/.test(bib)) highest = Math.max(highest, Number(bib));
  for (let k = 1; k <= count; k++) out.push(String(highest + k));
  return out;
}

/**
 * Confirms rows (issue 17: "clean rows confirm in bulk; rows with problems one by one"). Without
 * `rowIds`: every pending row without any issue. With `rowIds`: those rows, their warnings
 * acknowledged; a row with an error is refused (409 ROW_NOT_CONFIRMABLE) and nothing changes.
 * Each row becomes a participant of its race with a bib (the row's, else from the race's range),
 * the sender as club, its birth date (the results engine places it in its category by age on race
 * day, as validation did); the row keeps the participant's race and bib.
 */
export async function confirmRows(
  service: ConfirmationService,
  database: Database,
  doc: repo.DocumentRecord,
  rowIds: string[] | undefined,
  actor: Actor,
): Promise<number> {
  if (!['validated', 'partlyConfirmed'].includes(doc.status))
    throw errors.conflict('INVALID_TRANSITION', `A ${doc.status} document has nothing to confirm`);
  // Fresh verdicts: a bib or a place may have been taken since the last validation.
  await service.revalidate(doc, actor);
  const rows = await repo.rowsOf(database, doc.id);
  let targets: repo.RowRecord[];
  if (rowIds) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    targets = rowIds.map((id) => {
      const row = byId.get(id);
      if (!row) throw errors.notFound('ROW_NOT_FOUND', `No row '${id}' in this document`);
      return row;
    });
    const refused = targets.filter(
      (r) => r.decision !== 'pending' || r.issues.some((i) => i.severity === 'error'),
    );
    if (refused.length)
      throw errors.conflict(
        'ROW_NOT_CONFIRMABLE',
        `Row(s) ${refused
          .map((r) => r.position)
          .slice(0, 20)
          .join(', ')} have errors or are not pending`,
      );
  } else {
    targets = rows.filter((r) => r.decision === 'pending' && r.issues.length === 0);
  }
  if (!targets.length) return 0;

  const races = new Map((await repo.racesOfEvents(database, [doc.eventId])).map((r) => [r.id, r]));
  const facts = [...races.values()].map((r) => ({
    ...r,
    capacity: null,
    bibFrom: null,
    bibTo: null,
    registered: 0,
    takenBibs: new Set<string>(),
  }));
  const byRace = new Map<string, repo.RowRecord[]>();
  for (const row of targets) {
    const race = raceOfRow(row.fields, facts, doc.defaultRaceId).race!;
    byRace.set(race.id, [...(byRace.get(race.id) ?? []), row]);
  }
  const taken = await repo.bibsOf(database, [...byRace.keys()]);
  const plan: { raceId: string; people: Participant[]; rows: repo.RowRecord[] }[] = [];
  for (const [raceId, list] of byRace) {
    const race = races.get(raceId)!;
    const used = new Set(taken.filter((t) => t.raceId === raceId).map((t) => t.bib));
    for (const row of list) if (row.fields.bib) used.add(row.fields.bib);
    const needed = list.filter((r) => !r.fields.bib).length;
    const fresh = nextBibs(needed, used, { from: race.settings.bibFrom, to: race.settings.bibTo });
    if (!fresh)
      throw errors.conflict(
        'BIB_RANGE_EXHAUSTED',
        `The bib range of '${race.name}' has fewer than ${needed} free numbers`,
      );
    let k = 0;
    const people = list.map(
      (row): Participant => ({
        bib: row.fields.bib || fresh[k++]!,
        firstName: row.fields.firstName!,
        lastName: row.fields.lastName!,
        gender: parseGender(row.fields.gender ?? '') as Gender,
        birthDate: parseDate(row.fields.birthDate ?? '')!,
        nationality: (row.fields.nationality ?? '').slice(0, 3),
        club: doc.senderName,
        status: 'registered',
      }),
    );
    plan.push({ raceId, people, rows: list });
  }
  await database.transaction(async (sql) => {
    for (const { raceId, people, rows: list } of plan) {
      // 250 runners per statement, a turn of the event loop between (see repository.ts).
      for (let k = 0; k < people.length; k += 250) {
        await insertParticipants(
          sql,
          people.slice(k, k + 250).map((p, i) => ({
            ...p,
            raceId,
            trackingKey: randomKey(),
            email: list[k + i]!.fields.email ?? '',
          })),
        );
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
      const ids = await repo.participantIds(
        sql,
        raceId,
        people.map((p) => p.bib),
      );
      await repo.saveRowStates(
        sql,
        list.map((row, i) => ({
          ...row,
          decision: 'confirmed' as const,
          reason: null,
          participantId: ids.get(people[i]!.bib) ?? null,
          participantRaceId: raceId,
          participantBib: people[i]!.bib,
        })),
      );
    }
    await repo.clearEdits(sql, doc.id);
    await service.history(
      doc.id,
      actor,
      rowIds ? 'rowsConfirmed' : 'bulkConfirmed',
      { count: targets.length, positions: targets.map((r) => r.position).slice(0, 200) },
      sql,
    );
  });
  const contexts = await database.query<{ db: string }>(
    'SELECT DISTINCT db FROM races WHERE id = ANY($1::text[])',
    [plan.map((p) => p.raceId)],
  );
  for (const { db } of contexts) service.invalidateContext(db);
  // Rows still pending are validated again (places and bibs were taken); with none, the status
  // alone moves (a 5,000-row bulk confirmation need not re-read every participant).
  const left = rows.filter((r) => r.decision === 'pending').length - targets.length;
  const fresh = await service.reload(doc.id);
  if (left > 0) await service.revalidate(fresh, actor);
  else await service.settleStatus(fresh, actor);
  return targets.length;
}
