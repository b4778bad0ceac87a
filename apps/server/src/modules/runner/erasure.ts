import type { ErasurePreview, ErasureResult } from '@tempora/contracts';
import type { Database, Sql } from '../../db/database.ts';
import { AppError, errors } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { type EntriesService, entriesWhere, releaseCreditPlacesOf } from '../entries/port.ts';
import { anonymiseParticipants } from '../participants/port.ts';

export interface ErasureDeps {
  database: Database;
  entries: EntriesService;
  /** Drops the contexts' stored snapshots and reloads them (names gone from every view). */
  republish: (dbs: readonly string[]) => Promise<void>;
  now?: () => Date;
}

/** An entry's details with nothing left of the person (the shape the entries module reads). */
const ANONYMOUS_DETAILS = `jsonb_build_object('firstName', '', 'lastName', '', 'email', '', 'birthDate', null,
  'gender', e.details->'gender', 'nationality', '', 'club', '', 'licence', '', 'emergencyContact', '',
  'phone', '', 'guardianName', '', 'guardianEmail', '')`;

/**
 * Anonymises online entries (issue 40: an erased account, an event past its retention): the
 * person's details, answers and e-mail go; the race, state, amounts and code stay (the
 * organiser's counts and accounting). Changes waiting on them (a transfer names a runner) too.
 */
export async function anonymiseEntries(sql: Sql, where: string, params: unknown[]): Promise<string[]> {
  const changed = await sql.query<{ id: string; code: string }>(
    `UPDATE registration_entries e
        SET details = CASE WHEN e.details IS NULL THEN NULL ELSE ${ANONYMOUS_DETAILS} END,
            answers = '{}'::jsonb, email = '', account_sub = NULL, member_code = NULL, updated_at = now()
      WHERE ${where} RETURNING e.id::text AS id, e.code`,
    params,
  );
  if (changed.length)
    await sql.query(
      `UPDATE registration_changes SET payload = '{}'::jsonb WHERE entry_id = ANY($1::bigint[]) AND action = 'transfer'`,
      [changed.map((c) => c.id)],
    );
  return changed.map((c) => c.code);
}

/** Audit lines about people (a participant's changes name them) keep what happened, not the values. */
export async function scrubAuditDetails(
  sql: Sql,
  subject: 'participant' | 'entry',
  ids: readonly string[],
): Promise<void> {
  if (ids.length)
    await sql.query(
      `UPDATE audit_trail SET detail = '{"anonymised": true}'::jsonb WHERE subject = $1 AND subject_id = ANY($2::text[])`,
      [subject, ids],
    );
}

/**
 * "Delete my account" (issue 40, GDPR article 17). First the entries still to be run are
 * cancelled through the entries module's own cancel (its policy's refund, nothing once the policy
 * no longer allows it); then in one transaction: my results become anonymous rows (same times,
 * same ranks: participants/anonymise.ts), my entries, waitlists, group entries, claims, follows,
 * alert subscriptions (mine and those about me), mails, sessions and codes go, orders and refunds
 * lose their payer, audit lines lose my name, and the account is deleted (signing in with its
 * e-mail fails; its public page answers 404). Each event concerned gets one `privacy` audit line
 * with counts only. Refused while the account is an organisation's only owner or a group's
 * captain (their data is others' too).
 */
export function createErasure(deps: ErasureDeps) {
  const { database, entries } = deps;
  const now = deps.now ?? (() => new Date());

  async function accountOf(sub: string) {
    const [row] = await database.query<{ email: string }>('SELECT email FROM users WHERE sub = $1', [sub]);
    if (!row) throw errors.unauthorized();
    return row;
  }

  /** My entries still to be run (confirmed, race day today or later). */
  async function pending(sub: string, email: string) {
    return entriesWhere(
      database,
      `(e.account_sub = $1::uuid OR (e.email <> '' AND lower(e.email) = lower($2))) AND e.state = 'confirmed'
         AND e.race_id IN (SELECT id FROM races WHERE race_date >= $3::date)`,
      [sub, email, now().toISOString().slice(0, 10)],
    );
  }

  async function blockers(sub: string): Promise<ErasurePreview['blockers']> {
    const [row] = await database.query<{ soleOwner: boolean; captain: boolean; teamCaptain: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM organisation_members m WHERE m.user_sub = $1 AND m.role = 'owner'
                        AND NOT EXISTS (SELECT 1 FROM organisation_members o WHERE o.organisation_id = m.organisation_id
                                          AND o.role = 'owner' AND o.user_sub <> $1)) AS "soleOwner",
              EXISTS (SELECT 1 FROM deposits d WHERE d.captain_sub = $1) AS captain,
              EXISTS (SELECT 1 FROM registration_teams t WHERE t.captain_sub = $1) AS "teamCaptain"`,
      [sub],
    );
    const out: ErasurePreview['blockers'] = [];
    if (row?.soleOwner) out.push('SOLE_OWNER');
    if (row?.captain) out.push('DEPOSIT_CAPTAIN');
    if (row?.teamCaptain) out.push('TEAM_CAPTAIN');
    return out;
  }

  /** What goes or stays; `cancelled`: the participants of entries cancelled first (not results). */
  async function counts(sub: string, email: string, cancelled: readonly string[]) {
    const [row] = await database.query<{ results: number; claims: number; follows: number; about: number }>(
      `SELECT (SELECT count(*)::int FROM participants WHERE account_id = $1 AND deleted_at IS NULL
                 AND NOT id = ANY($3::uuid[])) AS results,
              (SELECT count(*)::int FROM runner_claims WHERE account_id = $1) AS claims,
              (SELECT count(*)::int FROM alert_subscriptions WHERE lower(email) = lower($2) AND active) AS follows,
              (SELECT count(*)::int FROM alert_subscriptions s JOIN participants p ON p.tracking_key = s.tracking_key
                WHERE p.account_id = $1 AND s.active) AS about`,
      [sub, email, cancelled],
    );
    return row ?? { results: 0, claims: 0, follows: 0, about: 0 };
  }

  return {
    async preview(sub: string): Promise<ErasurePreview> {
      const { email } = await accountOf(sub);
      const list = await pending(sub, email);
      const entriesToCancel: ErasurePreview['entriesToCancel'] = [];
      for (const entry of list) {
        const quote = await entries.self.quote(entry, { action: 'cancel' });
        const view = await entries.self.one(entry);
        entriesToCancel.push({
          code: entry.code,
          eventName: view.eventName,
          raceName: view.raceName,
          raceDate: view.raceDate,
          state: entry.state,
          policyAllows: quote.allowed,
          refundCents: quote.allowed ? quote.refundCents : 0,
          currency: view.currency,
        });
      }
      const c = await counts(
        sub,
        email,
        list.map((e) => e.participantId).filter((p): p is string => p !== null),
      );
      return {
        email,
        entriesToCancel,
        resultsKeptAnonymous: c.results,
        claims: c.claims,
        follows: c.follows,
        alertSubscriptionsAboutMe: c.about,
        blockers: await blockers(sub),
      };
    },

    async erase(sub: string, confirmEmail: string): Promise<ErasureResult> {
      const { email } = await accountOf(sub);
      if (confirmEmail.trim().toLowerCase() !== email.toLowerCase())
        throw new AppError(400, 'CONFIRMATION_MISMATCH', 'Type the e-mail address of this account', [
          { field: 'confirmEmail', message: 'CONFIRMATION_MISMATCH' },
        ]);
      const blocked = await blockers(sub);
      if (blocked.length)
        throw errors.conflict('ERASURE_BLOCKED', `Cannot erase the account: ${blocked.join(', ')}`);

      // 1. Entries still to be run: cancelled through the entries module (its refund).
      const perEvent = new Map<
        string,
        { entriesCancelled: number; refundedCents: number; results: number }
      >();
      const tally = (eventId: string) => {
        const t = perEvent.get(eventId) ?? { entriesCancelled: 0, refundedCents: 0, results: 0 };
        perEvent.set(eventId, t);
        return t;
      };
      let entriesCancelled = 0;
      let refundedCents = 0;
      for (const entry of await pending(sub, email)) {
        const done = await entries.self.act(entry, { action: 'cancel' }, { sub }, { erasure: true });
        entriesCancelled++;
        refundedCents += done.refundCents;
        const t = tally(entry.eventId);
        t.entriesCancelled++;
        t.refundedCents += done.refundCents;
      }

      // 2. Everything else, at once.
      const { dbs, results } = await database.transaction(async (sql) => {
        const mine = await sql.query<{ id: string; trackingKey: string; eventId: string; result: boolean }>(
          `SELECT p.id, p.tracking_key AS "trackingKey", c.event_id AS "eventId", p.deleted_at IS NULL AS result
             FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
            WHERE p.account_id = $1`,
          [sub],
        );
        for (const p of mine) if (p.result) tally(p.eventId).results++;
        const entryEvents = await sql.query<{ eventId: string }>(
          `SELECT DISTINCT event_id AS "eventId" FROM registration_entries
            WHERE account_sub = $1 OR (email <> '' AND lower(email) = lower($2))`,
          [sub, email],
        );
        for (const e of entryEvents) tally(e.eventId);
        const ids = mine.map((p) => p.id);
        const keys = mine.map((p) => p.trackingKey);
        const changed = await anonymiseParticipants(sql, ids);
        await scrubAuditDetails(sql, 'participant', ids);
        const codes = await anonymiseEntries(
          sql,
          `e.account_sub = $1 OR (e.email <> '' AND lower(e.email) = lower($2))`,
          [sub, email],
        );
        await scrubAuditDetails(sql, 'entry', codes);
        // Deferral credits (issue 38) keep their amount for the organiser's accounts, not the
        // e-mail; their codes in the next edition, usable by this runner only, are used up
        // (nobody else may ever use them) and forget the e-mail too.
        // Their reserved places in the next edition go back to the race.
        await releaseCreditPlacesOf(sql, email);
        await sql.query(`UPDATE registration_credits SET email = '' WHERE lower(email) = lower($1)`, [email]);
        await sql.query(
          `UPDATE registration_codes SET owner_email = '', capacity = taken + held
            WHERE owner_email <> '' AND lower(owner_email) = lower($1)`,
          [email],
        );
        await sql.query(
          `DELETE FROM registration_waitlist WHERE account_sub = $1 OR lower(email) = lower($2)`,
          [sub, email],
        );
        await sql.query('DELETE FROM deposit_members WHERE user_sub = $1', [sub]);
        await sql.query(
          `UPDATE registration_team_members SET account_sub = NULL, email = '', runner = '{}'::jsonb
            WHERE account_sub = $1 OR lower(email) = lower($2)`,
          [sub, email],
        );
        await sql.query('DELETE FROM deposit_messages WHERE author_sub = $1', [sub]);
        await sql.query(
          `UPDATE deposit_entries SET member_sub = NULL, first_name = '', last_name = '', email = '', birth_date = NULL,
                  nationality = '', updated_at = now()
            WHERE member_sub = $1`,
          [sub],
        );
        await sql.query('UPDATE orders SET payer_sub = NULL WHERE payer_sub = $1', [sub]);
        await sql.query('UPDATE refunds SET created_by = NULL WHERE created_by = $1', [sub]);
        await sql.query(
          `DELETE FROM alert_subscriptions WHERE lower(email) = lower($1) OR tracking_key = ANY($2::text[])`,
          [email, keys],
        );
        await sql.query('DELETE FROM alert_emails WHERE lower(email) = lower($1)', [email]);
        // Webhook deliveries already sent that named my results (by their tracking key).
        if (keys.length)
          await sql.query(
            `UPDATE webhook_deliveries d SET payload = '{"anonymised": true}'::jsonb
              WHERE d.state <> 'pending' AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS k(key)
                                                       WHERE d.payload::text LIKE '%' || k.key || '%')`,
            [keys],
          );
        await sql.query('DELETE FROM outbox WHERE lower(recipient) = lower($1)', [email]);
        await sql.query(
          `DELETE FROM organisation_invitations WHERE lower(email) = lower($1) AND accepted_at IS NULL`,
          [email],
        );
        await sql.query(
          `UPDATE audit_trail SET actor_sub = NULL, actor_email = '' WHERE actor_sub = $1::text`,
          [sub],
        );
        // Claims, memberships, sessions and codes go with the account (ON DELETE CASCADE).
        await sql.query('DELETE FROM users WHERE sub = $1', [sub]);
        await recordAudit(
          sql,
          [...perEvent].map(([eventId, t]) => ({
            subject: 'privacy' as const,
            subjectId: '',
            eventId,
            action: 'account-erased',
            actorSub: null,
            detail: {
              resultsKeptAnonymous: t.results,
              entriesCancelled: t.entriesCancelled,
              refundedCents: t.refundedCents,
            },
          })),
        );
        return { dbs: changed, results: mine.filter((p) => p.result).length };
      });
      await deps.republish(dbs);
      return { entriesCancelled, refundedCents, resultsKeptAnonymous: results };
    },
  };
}

export type Erasure = ReturnType<typeof createErasure>;
