import type { Sql } from '../../db/database.ts';

/** SQL of the followers' alerts (issue 40, 0067_alerts.sql). */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The server's VAPID keys: made once (`make`) by whichever node asks first, shared by all. */
export async function vapidKeys(sql: Sql, make: () => VapidKeys): Promise<VapidKeys> {
  const read = () =>
    sql.query<VapidKeys>(
      'SELECT public_key AS "publicKey", private_key AS "privateKey" FROM alert_vapid WHERE id = 1',
    );
  const [found] = await read();
  if (found) return found;
  const keys = make();
  await sql.query(
    'INSERT INTO alert_vapid (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [keys.publicKey, keys.privateKey],
  );
  return (await read())[0]!;
}

/** An address's confirmation: made on first use (token), confirmed once. */
export async function ensureEmail(
  sql: Sql,
  email: string,
  token: string,
): Promise<{ confirmed: boolean; token: string }> {
  await sql.query('INSERT INTO alert_emails (email, token) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING', [
    email,
    token,
  ]);
  const [row] = await sql.query<{ confirmed: boolean; token: string }>(
    'SELECT confirmed_at IS NOT NULL AS confirmed, token FROM alert_emails WHERE email = $1',
    [email],
  );
  return row!;
}

export async function confirmEmail(sql: Sql, token: string): Promise<string | null> {
  const [row] = await sql.query<{ email: string }>(
    'UPDATE alert_emails SET confirmed_at = coalesce(confirmed_at, now()) WHERE token = $1 RETURNING email',
    [token],
  );
  return row?.email ?? null;
}

export interface NewSubscription {
  trackingKey: string;
  channel: 'email' | 'push';
  email: string | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  points: string[];
  lng: 'en' | 'fr';
  token: string;
}

/** Subscribes (again: the same target's points and language are replaced, not doubled). */
export async function subscribe(sql: Sql, s: NewSubscription): Promise<void> {
  await sql.query(
    `INSERT INTO alert_subscriptions (tracking_key, channel, email, endpoint, p256dh, auth, points, lng, token)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (tracking_key, channel, coalesce(email, endpoint)) WHERE active
     DO UPDATE SET points = EXCLUDED.points, lng = EXCLUDED.lng, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth`,
    [s.trackingKey, s.channel, s.email, s.endpoint, s.p256dh, s.auth, s.points, s.lng, s.token],
  );
}

export async function unsubscribe(sql: Sql, token: string): Promise<boolean> {
  const rows = await sql.query(
    'UPDATE alert_subscriptions SET active = false WHERE token = $1 AND active RETURNING id',
    [token],
  );
  return rows.length > 0;
}

/** Whether the runner behind a tracking key exists and accepts alerts about themselves. */
export async function runnerAccepts(sql: Sql, trackingKey: string): Promise<boolean | null> {
  const [row] = await sql.query<{ off: boolean }>(
    `SELECT coalesce(u.alerts_off, false) AS off FROM participants p LEFT JOIN users u ON u.sub = p.account_id
      WHERE p.tracking_key = $1 AND p.deleted_at IS NULL`,
    [trackingKey],
  );
  return row ? !row.off : null;
}

export interface ActiveSubscription {
  id: string;
  trackingKey: string;
  channel: 'email' | 'push';
  email: string | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  points: string[];
  lng: 'en' | 'fr';
  token: string;
}

/**
 * The subscriptions that may be sent to now about these runners: active, e-mail addresses
 * confirmed, and the runner has not turned alerts about themselves off.
 */
export async function subscriptionsFor(sql: Sql, keys: readonly string[]): Promise<ActiveSubscription[]> {
  if (!keys.length) return [];
  return sql.query<ActiveSubscription>(
    `SELECT s.id, s.tracking_key AS "trackingKey", s.channel, s.email, s.endpoint, s.p256dh, s.auth, s.points,
            s.lng, s.token
       FROM alert_subscriptions s
       JOIN participants p ON p.tracking_key = s.tracking_key
       LEFT JOIN users u ON u.sub = p.account_id
       LEFT JOIN alert_emails e ON e.email = s.email
      WHERE s.tracking_key = ANY($1::text[]) AND s.active
        AND (s.channel = 'push' OR e.confirmed_at IS NOT NULL)
        AND NOT coalesce(u.alerts_off, false)`,
    [keys],
  );
}

/** A push endpoint the push service says is gone (404/410): no more messages to it. */
export async function dropSubscription(sql: Sql, id: string): Promise<void> {
  await sql.query('UPDATE alert_subscriptions SET active = false WHERE id = $1', [id]);
}

/** The runner's own switch: no alerts about me. */
export async function setAlertsOff(sql: Sql, sub: string, off: boolean): Promise<void> {
  await sql.query('UPDATE users SET alerts_off = $2, updated_at = now() WHERE sub = $1', [sub, off]);
}

export async function alertsOff(sql: Sql, sub: string): Promise<boolean> {
  const [row] = await sql.query<{ off: boolean }>('SELECT alerts_off AS off FROM users WHERE sub = $1', [
    sub,
  ]);
  return row?.off ?? false;
}

/**
 * Claims the messages of passings, one per (subscription, point), in one statement (several
 * nodes, one row each): 'new' the first time, 'corrected' when the time at that point changed
 * since it was sent, absent when it was sent already with this time; `seq` is the read's
 * (passings.seq): a sent time is replaced (a corrected message) only from a read at least as new
 * as the one it was sent for, so a node late with an older read sends nothing.
 */
export async function claimSends(
  sql: Sql,
  rows: readonly {
    subscriptionId: string;
    pointKey: string;
    timeMs: number;
    readAtMs: number;
    seq: number;
  }[],
): Promise<Map<string, 'new' | 'corrected'>> {
  if (!rows.length) return new Map();
  const claimed = await sql.query<{ id: string; point: string; corrections: number }>(
    `INSERT INTO alert_sends (subscription_id, point_key, time_ms, read_at_ms, seq)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
     ON CONFLICT (subscription_id, point_key) DO UPDATE
        SET time_ms = EXCLUDED.time_ms, corrections = alert_sends.corrections + 1,
            read_at_ms = EXCLUDED.read_at_ms, seq = EXCLUDED.seq, sent_at = now()
      WHERE alert_sends.time_ms <> EXCLUDED.time_ms AND EXCLUDED.seq >= alert_sends.seq
     RETURNING subscription_id::text AS id, point_key AS point, corrections`,
    [
      rows.map((r) => r.subscriptionId),
      rows.map((r) => r.pointKey),
      rows.map((r) => Math.round(r.timeMs)),
      rows.map((r) => Math.round(r.readAtMs)),
      rows.map((r) => r.seq),
    ],
  );
  return new Map(claimed.map((c) => [`${c.id}|${c.point}`, c.corrections === 0 ? 'new' : 'corrected']));
}
