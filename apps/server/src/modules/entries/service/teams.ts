import crypto from 'node:crypto';
import type { EntryOrder, EntryOrderInput, Team, TeamInput, TeamJoin } from '@tempora/contracts';
import { entryOrderInputSchema } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import * as settingsRepo from '../settings-repository.ts';
import type { createEnter, TeamOrder } from './enter.ts';
import { checkRunner, entryRules } from './runner-check.ts';
import { type EntriesContext, fieldProblem } from './shared.ts';

interface TeamRow {
  id: string;
  token: string;
  eventId: string;
  raceId: string;
  name: string;
  captainSub: string;
  pays: 'captain' | 'each';
}

const TEAM = `t.id::text AS id, t.token, t.event_id AS "eventId", t.race_id AS "raceId", t.name,
  t.captain_sub::text AS "captainSub", t.pays`;

/** A team's link token: `T` and 22 characters of base64url (132 random bits). */
const newTeamToken = () => `T${crypto.randomBytes(17).toString('base64url').slice(0, 22)}`;

/**
 * Who counts in a team: members whose place an order holds or took, and — when the captain pays —
 * members waiting for the captain's order (or whose order lapsed: they wait again).
 */
const COUNTED = `(e.state IN ('held', 'confirmed') OR (t.pays = 'captain' AND (m.entry_code IS NULL OR e.state = 'expired')))`;

/**
 * Team entries (issue 38): relays and company challenges. A captain names the team for a race that
 * takes teams; members join with the team's link; the captain pays for all (members wait until the
 * captain's order holds their places) or each pays their own (the member's order holds the place at
 * once). Places are held, paid and confirmed exactly like individual entries (enter.ts): a team
 * member is an entry, then a participant whose club on the start list is the team's name.
 */
export function createTeams(ctx: EntriesContext, enter: ReturnType<typeof createEnter>) {
  const { database, now } = ctx;

  async function find(sql: Sql, token: string, lock = false): Promise<TeamRow | null> {
    const [row] = await sql.query<TeamRow>(
      `SELECT ${TEAM} FROM registration_teams t WHERE t.token = $1${lock ? ' FOR UPDATE' : ''}`,
      [token],
    );
    return row ?? null;
  }

  const notFound = () => errors.notFound('TEAM_NOT_FOUND', 'No such team');

  async function create(user: { sub: string }, eventId: string, input: TeamInput): Promise<Team> {
    const race = await settingsRepo.raceRegistration(database, input.raceId);
    if (!race || race.eventId !== eventId)
      throw fieldProblem(400, [{ field: 'raceId', code: 'RACE_NOT_FOUND' }]);
    if (race.teamSize == null) throw fieldProblem(400, [{ field: 'raceId', code: 'TEAMS_NOT_TAKEN' }]);
    const token = newTeamToken();
    const inserted = await database.query<{ id: string }>(
      `INSERT INTO registration_teams (token, event_id, race_id, name, captain_sub, pays)
       VALUES ($1, $2, $3, $4, $5::uuid, $6) ON CONFLICT DO NOTHING RETURNING id::text AS id`,
      [token, eventId, input.raceId, input.name, user.sub, input.pays],
    );
    if (!inserted.length) throw fieldProblem(409, [{ field: 'name', code: 'TEAM_NAME_TAKEN' }]);
    return view(token, user.sub);
  }

  async function view(token: string, callerSub: string | null): Promise<Team> {
    const team = await find(database, token);
    if (!team) throw notFound();
    const [info] = await database.query<{
      eventName: string;
      raceName: string;
      captainName: string;
      currency: string;
    }>(
      `SELECT ev.name AS "eventName", r.name AS "raceName",
              coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), '') AS "captainName",
              coalesce(g.currency, 'EUR') AS currency
         FROM events ev JOIN races r ON r.id = $2 LEFT JOIN users u ON u.sub = $3::uuid
         LEFT JOIN registration_events g ON g.event_id = ev.id WHERE ev.id = $1`,
      [team.eventId, team.raceId, team.captainSub],
    );
    const race = await settingsRepo.raceRegistration(database, team.raceId);
    const members = await database.query<{ name: string; state: string | null; waiting: boolean }>(
      `SELECT trim((m.runner->>'firstName') || ' ' || (m.runner->>'lastName')) AS name, e.state,
              (m.entry_code IS NULL OR e.state = 'expired') AS waiting
         FROM registration_team_members m JOIN registration_teams t ON t.id = m.team_id
         LEFT JOIN registration_entries e ON e.code = m.entry_code
        WHERE m.team_id = $1::bigint AND ${COUNTED} ORDER BY m.id`,
      [team.id],
    );
    let dueCents = 0;
    if (team.pays === 'captain' && callerSub === team.captainSub) {
      const waiting = await waitingMembers(database, team.id);
      if (waiting.length) {
        const rules = await entryRules(database, team.eventId);
        for (const m of waiting) {
          const r = await checkRunner(database, team.eventId, rules, m.runner, '', now(), {
            ignoreStock: true,
          });
          dueCents += r.runner?.totalCents ?? 0;
        }
      }
    }
    return {
      token: team.token,
      eventId: team.eventId,
      eventName: info?.eventName ?? team.eventId,
      raceId: team.raceId,
      raceName: info?.raceName ?? team.raceId,
      name: team.name,
      pays: team.pays,
      teamSize: race?.teamSize ?? null,
      captainName: info?.captainName ?? '',
      captain: callerSub === team.captainSub,
      currency: info?.currency ?? 'EUR',
      members: members.map((m) => ({
        name: m.name,
        state: m.waiting ? 'waiting' : m.state === 'confirmed' ? 'confirmed' : 'held',
      })),
      dueCents,
    };
  }

  async function waitingMembers(sql: Sql, teamId: string) {
    return sql.query<{ id: string; accountSub: string | null; runner: EntryOrderInput['runners'][number] }>(
      `SELECT m.id::text AS id, m.account_sub::text AS "accountSub", m.runner
         FROM registration_team_members m LEFT JOIN registration_entries e ON e.code = m.entry_code
        WHERE m.team_id = $1::bigint AND (m.entry_code IS NULL OR e.state = 'expired') ORDER BY m.id`,
      [teamId],
    );
  }

  /** Counts the team's members under its lock; refuses (409 on `team`) past the race's team size. */
  async function reserve(sql: Sql, team: TeamRow, more: number) {
    await sql.query('SELECT 1 FROM registration_teams WHERE id = $1::bigint FOR UPDATE', [team.id]);
    const [row] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM registration_team_members m JOIN registration_teams t ON t.id = m.team_id
         LEFT JOIN registration_entries e ON e.code = m.entry_code WHERE m.team_id = $1::bigint AND ${COUNTED}`,
      [team.id],
    );
    const race = await settingsRepo.raceRegistration(sql, team.raceId);
    const size = race?.teamSize ?? 0;
    if ((row?.n ?? 0) + more > size) throw fieldProblem(409, [{ field: 'team', code: 'TEAM_FULL' }]);
  }

  /**
   * A member joins with the team's link (`eventId`: the event whose page the link was opened on).
   * A link of another event or race is refused on the `team` field, nothing changed. Each pays: the
   * member's order holds the place now. The captain pays: the member is checked and waits.
   */
  async function join(
    user: { sub: string; email: string },
    eventId: string,
    token: string,
    raw: EntryOrderInput,
  ): Promise<TeamJoin> {
    const input = entryOrderInputSchema.parse(raw);
    const team = await find(database, token);
    if (!team) throw fieldProblem(404, [{ field: 'team', code: 'TEAM_NOT_FOUND' }]);
    if (team.eventId !== eventId) throw fieldProblem(400, [{ field: 'team', code: 'TEAM_OTHER_EVENT' }]);
    const other = input.runners.findIndex((r) => r.raceId !== team.raceId);
    if (other >= 0)
      throw fieldProblem(400, [
        { field: 'team', code: 'TEAM_OTHER_RACE' },
        { field: `runners.${other}.raceId`, code: 'TEAM_OTHER_RACE' },
      ]);
    const runners = input.runners.map((r) => ({ ...r, email: r.email || user.email }));
    if (team.pays === 'each') {
      const order = await enter.placeOrder(user, eventId, { ...input, runners }, memberOrder(team, user.sub));
      return { team: await view(token, user.sub), order };
    }
    // The captain pays: each member checked now (errors on their fields), then kept waiting.
    const rules = await entryRules(database, eventId);
    const problems: { field: string; code: string }[] = [];
    for (const [n, r] of runners.entries()) {
      const out = await checkRunner(database, eventId, rules, r, `runners.${n}.`, now(), {
        ignoreStock: true,
      });
      problems.push(...out.errors);
    }
    if (problems.length) throw fieldProblem(400, problems);
    await database.transaction(async (sql) => {
      await reserve(sql, team, runners.length);
      for (const r of runners)
        await sql.query(
          `INSERT INTO registration_team_members (team_id, account_sub, email, lang, runner)
           VALUES ($1::bigint, $2::uuid, $3, $4, $5)`,
          [team.id, user.sub, r.email, input.lang, JSON.stringify(r)],
        );
    });
    return { team: await view(token, user.sub), order: null };
  }

  /** A member's own order: counted in the team, linked to the entry holding the place. */
  function memberOrder(team: TeamRow, sub: string): TeamOrder {
    return {
      id: team.id,
      reserve: (sql, n) => reserve(sql, team, n),
      async entered(sql, _n, code) {
        await sql.query(
          `INSERT INTO registration_team_members (team_id, account_sub, email, lang, runner, entry_code)
           SELECT $1::bigint, $2::uuid, e.email, e.lang, e.details, e.code FROM registration_entries e WHERE e.code = $3`,
          [team.id, sub, code],
        );
      },
    };
  }

  /** The captain pays for the members waiting: one order holding their places, as any order. */
  async function captainOrder(user: { sub: string; email: string }, token: string, lang: 'en' | 'fr') {
    const team = await find(database, token);
    if (!team || team.captainSub !== user.sub) throw notFound();
    if (team.pays !== 'captain')
      throw errors.conflict('TEAM_EACH_PAYS', 'Each member of this team pays their own entry');
    const waiting = await waitingMembers(database, team.id);
    if (!waiting.length) throw errors.conflict('TEAM_NOTHING_DUE', 'No member is waiting to be paid for');
    const order: EntryOrder = await enter.placeOrder(
      user,
      team.eventId,
      { lang, runners: waiting.map((m) => m.runner) },
      {
        id: team.id,
        accounts: waiting.map((m) => m.accountSub),
        // The waiting members are counted already (they join under the team's size).
        reserve: async () => {},
        async entered(sql, n, code) {
          await sql.query('UPDATE registration_team_members SET entry_code = $2 WHERE id = $1::bigint', [
            waiting[n]?.id,
            code,
          ]);
        },
      },
    );
    return order;
  }

  return { create, view, join, captainOrder };
}
