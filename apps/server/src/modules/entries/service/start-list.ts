import { type EntriesStartList, HIDDEN_RUNNER_NAME } from '@tempora/contracts';
import { errors } from '../../../errors.ts';
import * as settingsRepo from '../settings-repository.ts';
import type { EntriesContext } from './shared.ts';

/**
 * The entries' start list (issue 38): the confirmed entrants of each race, read from the one
 * participants table (bib, club — a team member's is the team's name —, the hidden name of issue
 * 40), with the answers to the organiser's questions marked "shown on the start list" as columns.
 * Private questions never leave the organiser's list.
 */
export function createStartList(ctx: EntriesContext) {
  const { database } = ctx;

  async function startList(eventId: string): Promise<EntriesStartList> {
    const [event] = await database.query<{ name: string; visibility: string }>(
      'SELECT name, visibility FROM events WHERE id = $1',
      [eventId],
    );
    const terms = await settingsRepo.eventTerms(database, eventId);
    if (event?.visibility !== 'public' || !terms)
      throw errors.notFound('REGISTRATION_NOT_FOUND', 'This event takes no entries online');
    const columns = (await settingsRepo.questionsOf(database, eventId))
      .filter((q) => q.public)
      .map((q) => ({ key: q.key, label: q.label, kind: q.kind }));
    const races = await settingsRepo.raceRegistrations(database, eventId);
    const rows = await database.query<{
      raceId: string;
      bib: string | null;
      firstName: string;
      lastName: string;
      club: string;
      hidden: boolean;
      team: string | null;
      answers: Record<string, unknown>;
    }>(
      `SELECT p.race_id AS "raceId", p.bib, p.first_name AS "firstName", p.last_name AS "lastName", p.club,
              p.name_hidden AS hidden, t.name AS team, e.answers
         FROM registration_entries e
         JOIN participants p ON p.id = e.participant_id AND p.deleted_at IS NULL
         LEFT JOIN registration_teams t ON t.id = e.team_id
        WHERE e.event_id = $1 AND e.state = 'confirmed'
        ORDER BY p.race_id, (p.bib IS NULL), length(p.bib), p.bib, lower(p.last_name), lower(p.first_name)`,
      [eventId],
    );
    return {
      eventId,
      eventName: event.name,
      columns,
      races: races.map((r) => ({
        raceId: r.raceId,
        name: r.name,
        runners: rows
          .filter((p) => p.raceId === r.raceId)
          .map((p) => ({
            bib: p.bib,
            name: p.hidden ? HIDDEN_RUNNER_NAME : `${p.firstName} ${p.lastName}`.trim(),
            club: p.hidden ? '' : p.club,
            team: p.team,
            answers: p.hidden
              ? {}
              : Object.fromEntries(
                  columns
                    .filter((c) => p.answers[c.key] !== undefined && p.answers[c.key] !== null)
                    .map((c) => [c.key, p.answers[c.key] as string | string[] | number | boolean]),
                ),
          })),
      })),
    };
  }

  return { startList };
}
