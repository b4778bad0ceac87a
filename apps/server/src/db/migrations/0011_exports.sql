-- Issue 16, results out: export settings, certificate templates, the verification-token secret,
-- webhooks with their durable delivery queue and attempt log.

-- Per event: whether spectators may download report exports (organisers always may).
CREATE TABLE export_settings (
  event_id text PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  spectator_exports boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The finisher certificate an organiser designs: fields and positions (JSON), an optional
-- background image (base64, at most 2 MB decoded) kept in the database so every node serves it.
CREATE TABLE certificate_templates (
  event_id text PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
  template jsonb NOT NULL,
  background text,
  background_type text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Secrets the server signs with (certificate verification tokens), made once and shared by nodes.
CREATE TABLE signing_secrets (
  name text PRIMARY KEY,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- An organiser's webhook: deliveries of the chosen event types to one URL, signed with `secret`
-- (HMAC-SHA256; shown once at creation).
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  url text NOT NULL,
  types text[] NOT NULL,
  secret text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_event_idx ON webhooks (event_id);

-- The durable queue: one row per (webhook, occurrence); retried with back-off until delivered or
-- `expires_at` (24 h after it was queued or replayed).
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  type text NOT NULL,
  dedupe_key text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL DEFAULT now() + interval '24 hours',
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (webhook_id, dedupe_key)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, id DESC);

-- Every attempt with the receiver's answer code (null when it could not be reached).
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status integer,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id);
