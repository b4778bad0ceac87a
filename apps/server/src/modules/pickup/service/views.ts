import type { PickupConflict, PickupList, PickupRunner } from '@tempora/contracts';
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

  async function conflicts(eventId: string): Promise<PickupConflict[]> {
    const rows = await database.query<{
      id: string;
      participantId: string;
      name: string;
      bib: string | null;
      raceName: string;
      state: 'conflict' | 'resolved';
      resolvedBy: string | null;
      at: string;
      by: string;
      device: string;
      items: string[];
      keptAt: string | null;
      keptBy: string | null;
      keptDevice: string | null;
      keptItems: string[] | null;
    }>(
      `SELECT h.id::text AS id, h.participant_id::text AS "participantId", p.first_name || ' ' || p.last_name AS name,
              p.bib, r.name AS "raceName", h.state, h.resolved_by AS "resolvedBy", h.handed_at AS at, h.actor_email AS by,
              h.device, h.items, k.handed_at AS "keptAt", k.actor_email AS "keptBy", k.device AS "keptDevice", k.items AS "keptItems"
         FROM pickup_handouts h JOIN participants p ON p.id = h.participant_id JOIN races r ON r.id = p.race_id
         LEFT JOIN pickup_handouts k ON k.participant_id = h.participant_id AND k.state = 'kept'
        WHERE h.event_id = $1 AND h.state IN ('conflict', 'resolved') ORDER BY h.state, h.id`,
      [eventId],
    );
    return rows.map((r) => ({
      id: r.id,
      participantId: r.participantId,
      name: r.name,
      bib: r.bib,
      raceName: r.raceName,
      state: r.state,
      resolvedBy: r.resolvedBy,
      conflict: { at: iso(r.at) as string, by: r.by, device: r.device, items: r.items },
      kept: r.keptAt
        ? {
            at: iso(r.keptAt) as string,
            by: r.keptBy ?? '',
            device: r.keptDevice ?? '',
            items: r.keptItems ?? [],
          }
        : null,
    }));
  }

  /** A conflict looked at: marked resolved, with who (both handouts stay on record). */
  async function resolve(eventId: string, id: string, actor: PickupActor): Promise<PickupConflict> {
    const rows = await database.query(
      `UPDATE pickup_handouts SET state = 'resolved', resolved_by = $3, resolved_at = now()
        WHERE event_id = $1 AND id = $2::bigint AND state = 'conflict' RETURNING id`,
      [eventId, /^\d{1,18}$/.test(id) ? id : '0', actor.email],
    );
    const found = (await conflicts(eventId)).find((c) => c.id === id);
    if (!found) throw errors.notFound('CONFLICT_NOT_FOUND', `No conflict '${id}'`);
    if (!rows.length && found.state !== 'resolved') throw errors.conflict('CONFLICT_STATE', 'Not a conflict');
    return found;
  }

  return { list, card, conflicts, resolve };
}
