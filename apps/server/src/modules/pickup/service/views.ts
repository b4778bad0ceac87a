import type { PickupConflict, PickupList, PickupRunner } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import { iso } from '../../../lib/iso-time.ts';
import { addOnsOf, eventTerms, findEntryByCode } from '../../entries/port.ts';
import * as repo from '../repository.ts';
import type { PickupActor, PickupDeps } from './shared.ts';

/**
 * What a volunteer reads (issue 39): the event's pickup list (kept on the phone for offline use),
 * a runner's card from a scanned entry code, and the conflicts (a runner handed out twice).
 */
export function createViews(deps: PickupDeps) {
  const { database } = deps;
  const now = deps.now ?? (() => new Date());

  async function list(event: { id: string; name: string; timeZone: string }): Promise<PickupList> {
    const [lang] = await database.query<{ lang: string }>(
      `SELECT coalesce((SELECT CASE WHEN o.country IN ('BE', 'FR', 'LU', 'CH', 'CA', 'MC') THEN 'fr' ELSE 'en' END
                          FROM organisations o JOIN events e ON e.organisation_id = o.id WHERE e.id = $1), 'en') AS lang`,
      [event.id],
    );
    const terms = await eventTerms(database, event.id);
    return {
      event: { ...event, lang: lang?.lang === 'fr' ? 'fr' : 'en' },
      races: (await repo.racesOf(database, event.id)).map(({ db: _db, ...r }) => r),
      addOns: (await addOnsOf(database, event.id)).map((a) => ({
        key: a.key,
        name: a.name,
        priceCents: a.priceCents,
      })),
      currency: terms?.currency ?? 'EUR',
      runners: await repo.runnersOf(database, event.id),
      at: now().toISOString(),
    };
  }

  /** The runner of a scanned entry code (404 ENTRY_NOT_FOUND: none, another event's, not confirmed). */
  async function card(eventId: string, code: string): Promise<PickupRunner> {
    const entry = await findEntryByCode(database, code);
    const runner =
      entry?.eventId === eventId && entry.participantId
        ? (await repo.runnersOf(database, eventId, [entry.participantId]))[0]
        : undefined;
    if (!runner)
      throw errors.notFound('ENTRY_NOT_FOUND', `No runner of this event with entry code '${code}'`);
    return runner;
  }

  async function conflicts(eventId: string, sql: Sql = database, id?: string): Promise<PickupConflict[]> {
    const rows = await sql.query<{
      id: string;
      participantId: string;
      name: string;
      bib: string | null;
      raceName: string;
      state: string;
      resolution: 'first' | 'second' | null;
      resolvedBy: string | null;
      resolvedAt: string | null;
      at: string;
      by: string;
      device: string;
      items: string[];
      firstAt: string | null;
      firstBy: string | null;
      firstDevice: string | null;
      firstItems: string[] | null;
    }>(
      `SELECT h.id::text AS id, h.participant_id::text AS "participantId", p.first_name || ' ' || p.last_name AS name,
              p.bib, r.name AS "raceName", h.state, h.resolution, h.resolved_by AS "resolvedBy", h.resolved_at AS "resolvedAt",
              h.handed_at AS at, h.actor_email AS by, h.device, h.items,
              a.handed_at AS "firstAt", a.actor_email AS "firstBy", a.device AS "firstDevice", a.items AS "firstItems"
         FROM pickup_handouts h JOIN participants p ON p.id = h.participant_id JOIN races r ON r.id = p.race_id
         LEFT JOIN pickup_handouts a ON a.id = coalesce(h.against_id,
              (SELECT k.id FROM pickup_handouts k WHERE k.participant_id = h.participant_id AND k.state = 'kept' AND k.id <> h.id))
        WHERE h.event_id = $1 AND (h.state = 'conflict' OR h.resolution IS NOT NULL) ${id ? 'AND h.id = $2::bigint' : ''}
        ORDER BY h.state = 'conflict' DESC, h.resolved_at DESC NULLS LAST, h.id`,
      id ? [eventId, id] : [eventId],
    );
    return rows.map((r) => ({
      id: r.id,
      participantId: r.participantId,
      name: r.name,
      bib: r.bib,
      raceName: r.raceName,
      state: r.state === 'conflict' ? 'conflict' : 'resolved',
      resolution: r.resolution,
      resolvedBy: r.resolvedBy,
      resolvedAt: iso(r.resolvedAt) ?? null,
      second: { at: iso(r.at) as string, by: r.by, device: r.device, items: r.items },
      first: r.firstAt
        ? {
            at: iso(r.firstAt) as string,
            by: r.firstBy ?? '',
            device: r.firstDevice ?? '',
            items: r.firstItems ?? [],
          }
        : null,
    }));
  }

  /**
   * A conflict resolved, with who and when: keep the first handout (the second marked resolved)
   * or the second (it becomes the runner's handout, the first `undone`; the runner's other open
   * conflicts then face the second). Both stay on record. Resolving again the same way answers
   * the same; the other way is 409 CONFLICT_RESOLVED.
   */
  async function resolve(
    eventId: string,
    id: string,
    keep: 'first' | 'second',
    actor: PickupActor,
  ): Promise<PickupConflict> {
    if (!/^\d{1,18}$/.test(id)) throw errors.notFound('CONFLICT_NOT_FOUND', `No conflict '${id}'`);
    return database.transaction(async (sql) => {
      const [row] = await sql.query<{
        state: string;
        resolution: string | null;
        participantId: string;
        againstId: string | null;
      }>(
        `SELECT state, resolution, participant_id::text AS "participantId", against_id::text AS "againstId"
           FROM pickup_handouts WHERE event_id = $1 AND id = $2::bigint FOR UPDATE`,
        [eventId, id],
      );
      if (!row || (row.state !== 'conflict' && !row.resolution))
        throw errors.notFound('CONFLICT_NOT_FOUND', `No conflict '${id}'`);
      if (row.state !== 'conflict') {
        if (row.resolution !== keep)
          throw errors.conflict('CONFLICT_RESOLVED', `Resolved already: the ${row.resolution} handout kept`);
      } else if (keep === 'first') {
        await sql.query(
          `UPDATE pickup_handouts SET state = 'resolved', resolution = 'first', resolved_by = $2, resolved_at = now()
            WHERE id = $1::bigint`,
          [id, actor.email],
        );
      } else {
        const [first] = await sql.query<{ id: string }>(
          `SELECT id::text AS id FROM pickup_handouts
            WHERE participant_id = $1::uuid AND state = 'kept' AND ($2::bigint IS NULL OR id = $2::bigint) FOR UPDATE`,
          [row.participantId, row.againstId],
        );
        if (!first)
          throw errors.conflict('CONFLICT_STATE', 'The first handout is not the runner’s handout any more');
        await sql.query(
          `UPDATE pickup_handouts SET state = 'undone', resolved_by = $2, resolved_at = now() WHERE id = $1::bigint`,
          [first.id, actor.email],
        );
        await sql.query(
          `UPDATE pickup_handouts SET state = 'kept', resolution = 'second', resolved_by = $2, resolved_at = now()
            WHERE id = $1::bigint`,
          [id, actor.email],
        );
        await sql.query(
          `UPDATE pickup_handouts SET against_id = $2::bigint WHERE participant_id = $1::uuid AND state = 'conflict'`,
          [row.participantId, id],
        );
      }
      const [found] = await conflicts(eventId, sql, id);
      return found as PickupConflict;
    });
  }

  return { list, card, conflicts, resolve };
}
