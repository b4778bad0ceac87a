import type { EventRetention, PrivacyLogEntry } from '@tempora/contracts';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { anonymiseParticipants } from '../participants/port.ts';
import { anonymiseEntries, scrubAuditDetails } from './erasure.ts';

export interface RetentionDeps {
  database: Database;
  /** Drops the contexts' stored snapshots and reloads them (names gone from every view). */
  republish: (dbs: readonly string[]) => Promise<void>;
  /** The clock (tests move it). */
  now: () => Date;
}

/** The day (UTC) an event's personal data is anonymised: the day after its last kept day. */
const ANONYMISE_ON = `(e.end_date + e.retention_days + 1)`;

/**
 * How long an event keeps its runners' personal data (issue 40): the organiser's setting, and the
 * scheduled job that anonymises each event past it, once. The job's clock is injected: it
 * anonymises the events whose day has come by `now()`, so a test moves the clock instead of
 * waiting. Names, birth dates (the age kept: categories unchanged), e-mails, nationalities, clubs,
 * entry details (phones, emergency contacts, addresses, guardians), answers, claims, waitlists,
 * group entries' people and alerts about the runners go; times, bibs, genders, categories and so
 * every rank stay, and the contexts' stored snapshots are dropped and rebuilt without the names.
 * Each run of an event leaves one `privacy` audit line with counts.
 */
export function createRetention(deps: RetentionDeps) {
  const { database, now } = deps;

  async function log(eventId: string): Promise<PrivacyLogEntry[]> {
    return database.query<PrivacyLogEntry>(
      `SELECT action, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at, detail
         FROM audit_trail WHERE subject = 'privacy' AND event_id = $1 ORDER BY id DESC LIMIT 200`,
      [eventId],
    );
  }

  async function get(eventId: string): Promise<EventRetention> {
    const [row] = await database.query<Omit<EventRetention, 'log'>>(
      `SELECT e.retention_days AS "retentionDays", to_char(e.end_date, 'YYYY-MM-DD') AS "endDate",
              to_char(${ANONYMISE_ON}, 'YYYY-MM-DD') AS "anonymiseOn",
              to_char(e.personal_data_anonymised_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "anonymisedAt"
         FROM events e WHERE e.id = $1`,
      [eventId],
    );
    if (!row) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    return { ...row, log: await log(eventId) };
  }

  /** Anonymises one event now (in one transaction; a second node finds it done). */
  async function anonymiseEvent(eventId: string): Promise<boolean> {
    const result = await database.transaction(async (sql) => {
      const [event] = await sql.query<{ id: string }>(
        'SELECT id FROM events WHERE id = $1 AND personal_data_anonymised_at IS NULL FOR UPDATE',
        [eventId],
      );
      if (!event) return null;
      const people = await sql.query<{ id: string; trackingKey: string }>(
        `SELECT p.id, p.tracking_key AS "trackingKey" FROM participants p JOIN races r ON r.id = p.race_id
           JOIN contexts c ON c.db = r.db WHERE c.event_id = $1`,
        [eventId],
      );
      const ids = people.map((p) => p.id);
      const dbs = await anonymiseParticipants(sql, ids);
      await scrubAuditDetails(sql, 'participant', ids);
      const codes = await anonymiseEntries(sql, 'e.event_id = $1', [eventId]);
      await scrubAuditDetails(sql, 'entry', codes);
      const races = `SELECT r.id FROM races r JOIN contexts c ON c.db = r.db WHERE c.event_id = $1`;
      await sql.query(`DELETE FROM registration_waitlist WHERE race_id IN (${races})`, [eventId]);
      await sql.query(
        `UPDATE deposit_entries SET member_sub = NULL, first_name = '', last_name = '', email = '', birth_date = NULL,
                nationality = '', updated_at = now()
          WHERE deposit_id IN (SELECT id FROM deposits WHERE event_id = $1)`,
        [eventId],
      );
      await sql.query(
        `UPDATE registration_team_members SET account_sub = NULL, email = '', runner = '{}'::jsonb
          WHERE team_id IN (SELECT id FROM registration_teams WHERE event_id = $1)`,
        [eventId],
      );
      await sql.query('DELETE FROM runner_claims WHERE participant_id = ANY($1::uuid[])', [ids]);
      await sql.query('DELETE FROM alert_subscriptions WHERE tracking_key = ANY($1::text[])', [
        people.map((p) => p.trackingKey),
      ]);
      // Webhook deliveries sent or given up keep their row (a duplicate key is never sent twice) but
      // not the runners named in their payload.
      await sql.query(
        `UPDATE webhook_deliveries SET payload = '{"anonymised": true}'::jsonb
          WHERE state <> 'pending' AND webhook_id IN (SELECT id FROM webhooks WHERE event_id = $1)`,
        [eventId],
      );
      await sql.query('UPDATE events SET personal_data_anonymised_at = $2 WHERE id = $1', [eventId, now()]);
      await recordAudit(sql, [
        {
          subject: 'privacy',
          subjectId: '',
          eventId,
          action: 'retention-anonymised',
          actorSub: null,
          detail: { participants: ids.length, entries: codes.length },
        },
      ]);
      return dbs;
    });
    if (result === null) return false;
    await deps.republish(result);
    return true;
  }

  return {
    get,

    /** The organiser's setting: days after the event's last day, or null (kept until deleted). */
    async set(eventId: string, retentionDays: number | null): Promise<EventRetention> {
      const changed = await database.query(
        'UPDATE events SET retention_days = $2, updated_at = now() WHERE id = $1 RETURNING id',
        [eventId, retentionDays],
      );
      if (!changed.length) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
      return get(eventId);
    },

    /** The scheduled job: every event whose day has come by the clock's today. Answers their ids. */
    async run(): Promise<string[]> {
      const today = now().toISOString().slice(0, 10);
      const due = await database.query<{ id: string }>(
        `SELECT e.id FROM events e
          WHERE e.retention_days IS NOT NULL AND e.personal_data_anonymised_at IS NULL
            AND ${ANONYMISE_ON} <= $1::date ORDER BY e.end_date, e.id`,
        [today],
      );
      const done: string[] = [];
      for (const { id } of due) if (await anonymiseEvent(id)) done.push(id);
      return done;
    },
  };
}

export type Retention = ReturnType<typeof createRetention>;
