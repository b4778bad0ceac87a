import type { Webhook, WebhookDelivery, WebhookType } from '@tempora/contracts';
import type { Sql } from '../../db/database.ts';

const WEBHOOK = `w.id, w.event_id AS "eventId", w.url, w.types, w.active, w.created_at AS "createdAt",
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'pending') AS pending,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'delivered') AS delivered,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'failed') AS failed`;

type WebhookRow = Omit<Webhook, 'counts' | 'createdAt'> & {
  createdAt: Date | string;
  pending: number;
  delivered: number;
  failed: number;
};

const toWebhook = ({ pending, delivered, failed, createdAt, ...w }: WebhookRow): Webhook => ({
  ...w,
  createdAt: new Date(createdAt).toISOString(),
  counts: { pending, delivered, failed },
});

export async function webhooksOf(sql: Sql, eventId: string): Promise<Webhook[]> {
  const rows = await sql.query<WebhookRow>(
    `SELECT ${WEBHOOK} FROM webhooks w WHERE w.event_id = $1 ORDER BY w.created_at, w.id`,
    [eventId],
  );
  return rows.map(toWebhook);
}

export async function findWebhook(
  sql: Sql,
  id: string,
): Promise<(Webhook & { organisationId: string }) | undefined> {
  const [row] = await sql.query<WebhookRow & { organisationId: string }>(
    `SELECT ${WEBHOOK}, e.organisation_id AS "organisationId"
     FROM webhooks w JOIN events e ON e.id = w.event_id WHERE w.id = $1`,
    [id],
  );
  return row ? { ...toWebhook(row), organisationId: row.organisationId } : undefined;
}

export async function insertWebhook(
  sql: Sql,
  w: { eventId: string; url: string; types: WebhookType[]; secret: string; createdBy: string | null },
): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    'INSERT INTO webhooks (event_id, url, types, secret, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [w.eventId, w.url, w.types, w.secret, w.createdBy],
  );
  return row!.id;
}

export async function updateWebhook(
  sql: Sql,
  id: string,
  patch: { url?: string | undefined; types?: WebhookType[] | undefined; active?: boolean | undefined },
): Promise<void> {
  await sql.query(
    `UPDATE webhooks SET url = coalesce($2, url), types = coalesce($3, types), active = coalesce($4, active)
     WHERE id = $1`,
    [id, patch.url ?? null, patch.types ?? null, patch.active ?? null],
  );
}

export async function deleteWebhook(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM webhooks WHERE id = $1', [id]);
}

/** Active webhooks of an event with their secrets (the delivery side only). */
export async function activeWebhooks(
  sql: Sql,
  eventId: string,
): Promise<{ id: string; types: WebhookType[] }[]> {
  return sql.query('SELECT id, types FROM webhooks WHERE event_id = $1 AND active', [eventId]);
}

/** A delivery to queue. */
export interface NewDelivery {
  webhookId: string;
  type: string;
  dedupeKey: string;
  payload: unknown;
}

/**
 * Queues deliveries (≤ 1,000 rows per statement, unnest arrays); an occurrence already queued for
 * a webhook (same dedupe key) is not queued twice. Returns how many were queued.
 */
export async function enqueue(sql: Sql, deliveries: readonly NewDelivery[]): Promise<number> {
  let queued = 0;
  for (let k = 0; k < deliveries.length; k += 1000) {
    const part = deliveries.slice(k, k + 1000);
    const rows = await sql.query(
      `INSERT INTO webhook_deliveries (webhook_id, type, dedupe_key, payload)
       SELECT w, t, d, p::jsonb FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS x(w, t, d, p)
       ON CONFLICT (webhook_id, dedupe_key) DO NOTHING RETURNING id`,
      [
        part.map((d) => d.webhookId),
        part.map((d) => d.type),
        part.map((d) => d.dedupeKey),
        part.map((d) => JSON.stringify(d.payload)),
      ],
    );
    queued += rows.length;
  }
  return queued;
}

/** A claimed delivery, ready to send. */
export interface ClaimedDelivery {
  id: number;
  type: string;
  payload: unknown;
  attempts: number;
  expiresAt: Date;
  url: string;
  secret: string;
  webhookId: string;
}

/**
 * Claims up to `limit` due deliveries of active webhooks for `leaseMs` (their next attempt moved
 * past the lease, the attempt counted), skipping rows another node holds: each is sent by one
 * node at a time, and a node that dies mid-send leaves it to be retried when the lease ends.
 */
export async function claimDue(sql: Sql, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return sql.query<ClaimedDelivery>(
    `UPDATE webhook_deliveries d
     SET next_attempt_at = now() + $2 * interval '1 millisecond', attempts = d.attempts + 1
     FROM webhooks w
     WHERE w.id = d.webhook_id AND d.id IN (
       SELECT q.id FROM webhook_deliveries q JOIN webhooks a ON a.id = q.webhook_id AND a.active
       WHERE q.state = 'pending' AND q.next_attempt_at <= now()
       ORDER BY q.next_attempt_at, q.id LIMIT $1 FOR UPDATE OF q SKIP LOCKED)
     RETURNING d.id::int AS id, d.type, d.payload, d.attempts, d.expires_at AS "expiresAt", w.url, w.secret,
       w.id AS "webhookId"`,
    [limit, leaseMs],
  );
}

/** Records an attempt and its outcome: delivered, retried at `retryAt`, or failed for good. */
export async function recordAttempt(
  sql: Sql,
  id: number,
  attempt: { status: number | null; error: string | null; durationMs: number },
  outcome: { state: 'delivered' } | { state: 'pending'; retryAt: Date } | { state: 'failed' },
): Promise<void> {
  await sql.query(
    'INSERT INTO webhook_attempts (delivery_id, status, error, duration_ms) VALUES ($1, $2, $3, $4)',
    [id, attempt.status, attempt.error, attempt.durationMs],
  );
  await sql.query(
    `UPDATE webhook_deliveries SET state = $2, last_status = $3, last_error = $4,
       next_attempt_at = coalesce($5, next_attempt_at),
       delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END
     WHERE id = $1`,
    [id, outcome.state, attempt.status, attempt.error, outcome.state === 'pending' ? outcome.retryAt : null],
  );
}

export async function deliveriesOf(sql: Sql, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
  const rows = await sql.query<
    Omit<WebhookDelivery, 'createdAt' | 'nextAttemptAt' | 'deliveredAt' | 'log'> & {
      createdAt: Date;
      nextAttemptAt: Date;
      deliveredAt: Date | null;
      log: { at: string; status: number | null; error: string | null; durationMs: number }[] | null;
    }
  >(
    `SELECT d.id::int AS id, d.type, d.state, d.attempts, d.last_status AS "lastStatus", d.last_error AS "lastError",
       d.created_at AS "createdAt", d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt", d.payload,
       (SELECT json_agg(json_build_object('at', a.attempted_at, 'status', a.status, 'error', a.error,
          'durationMs', a.duration_ms) ORDER BY a.id)
        FROM webhook_attempts a WHERE a.delivery_id = d.id) AS log
     FROM webhook_deliveries d WHERE d.webhook_id = $1 ORDER BY d.id DESC LIMIT $2`,
    [webhookId, limit],
  );
  return rows.map((r) => ({
    ...r,
    createdAt: new Date(r.createdAt).toISOString(),
    nextAttemptAt: r.state === 'pending' ? new Date(r.nextAttemptAt).toISOString() : null,
    deliveredAt: r.deliveredAt ? new Date(r.deliveredAt).toISOString() : null,
    log: (r.log ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  }));
}

/** Queues a delivery again (replay): due now, 24 more hours of retries. False when unknown. */
export async function replay(sql: Sql, webhookId: string, deliveryId: number): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = now(),
       expires_at = now() + interval '24 hours', delivered_at = NULL
     WHERE id = $1 AND webhook_id = $2 RETURNING id`,
    [deliveryId, webhookId],
  );
  return rows.length > 0;
}
