-- Group deposits and payments (issue 18). Amounts are integer cents; every sub is a users.sub.

-- What an event's organiser sets for group entries: fees and places per race, the entry
-- deadline (edits lock then), how long an unpaid order holds its places, the refund policy and
-- the account bank transfers go to.
CREATE TABLE deposit_settings (
  event_id text PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
  open boolean NOT NULL DEFAULT true,
  entry_deadline timestamptz,
  currency text NOT NULL DEFAULT 'EUR',
  fees jsonb NOT NULL DEFAULT '{}'::jsonb,
  capacities jsonb NOT NULL DEFAULT '{}'::jsonb,
  order_expiry_days integer NOT NULL DEFAULT 14 CHECK (order_expiry_days BETWEEN 1 AND 365),
  refund_policy jsonb NOT NULL DEFAULT '{"kind":"none"}'::jsonb,
  beneficiary text NOT NULL DEFAULT '',
  iban text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE deposits (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id),
  organisation_name text NOT NULL,
  vat text,
  type text NOT NULL CHECK (type IN ('company', 'club', 'school', 'friends')),
  captain_sub uuid NOT NULL REFERENCES users(sub),
  join_code text NOT NULL UNIQUE,
  payer_mode text NOT NULL CHECK (payer_mode IN ('captain', 'member', 'company')),
  company_cap integer CHECK (company_cap > 0),
  company_until date,
  min_team_size integer NOT NULL DEFAULT 1 CHECK (min_team_size >= 1),
  state text NOT NULL DEFAULT 'collecting' CHECK (state IN
    ('collecting', 'submitted', 'awaiting_payment', 'paid', 'confirmed', 'closed', 'expired', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  submitted_at timestamptz
);
CREATE INDEX deposits_event_idx ON deposits (event_id);
CREATE INDEX deposits_captain_idx ON deposits (captain_sub);

CREATE TABLE deposit_members (
  deposit_id bigint NOT NULL REFERENCES deposits(id) ON DELETE CASCADE,
  user_sub uuid NOT NULL REFERENCES users(sub),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (deposit_id, user_sub)
);
CREATE INDEX deposit_members_user_idx ON deposit_members (user_sub);

-- A place in the team: a placeholder (bought, no name yet) until someone fills it in. Once
-- confirmed it is a participant (race_id, bib). `substitution` holds a change asked after payment,
-- waiting for the organiser.
CREATE TABLE deposit_entries (
  id bigserial PRIMARY KEY,
  deposit_id bigint NOT NULL REFERENCES deposits(id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('placeholder', 'submitted', 'valid', 'confirmed', 'cancelled')),
  member_sub uuid REFERENCES users(sub),
  race_id text REFERENCES races(id),
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  gender text CHECK (gender IN ('M', 'F', 'X')),
  birth_date date,
  email text NOT NULL DEFAULT '',
  nationality text NOT NULL DEFAULT '',
  category text,
  bib text,
  substitution jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deposit_entries_deposit_idx ON deposit_entries (deposit_id);

-- The captain's messages (a thread), each delivered through the outbox to its recipients.
CREATE TABLE deposit_messages (
  id bigserial PRIMARY KEY,
  deposit_id bigint NOT NULL REFERENCES deposits(id) ON DELETE CASCADE,
  author_sub uuid NOT NULL REFERENCES users(sub),
  audience text NOT NULL CHECK (audience IN ('all', 'missing', 'unpaid', 'organiser')),
  subject text NOT NULL,
  body text NOT NULL,
  recipients text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deposit_messages_deposit_idx ON deposit_messages (deposit_id, created_at);

-- An order per payer; lines frozen at submission. `structured` is its Belgian structured
-- communication (12 digits), unique, derived from the id.
CREATE TABLE orders (
  id bigserial PRIMARY KEY,
  deposit_id bigint NOT NULL REFERENCES deposits(id),
  event_id text NOT NULL REFERENCES events(id),
  payer_sub uuid NOT NULL REFERENCES users(sub),
  company boolean NOT NULL DEFAULT false,
  state text NOT NULL CHECK (state IN ('awaiting_payment', 'paid', 'expired', 'cancelled', 'refunded')),
  provider text NOT NULL DEFAULT 'bank' CHECK (provider IN ('bank', 'mollie', 'stripe')),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  paid_cents integer NOT NULL DEFAULT 0,
  refunded_cents integer NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'EUR',
  structured text NOT NULL UNIQUE,
  provider_payment_id text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz
);
CREATE INDEX orders_deposit_idx ON orders (deposit_id);
CREATE INDEX orders_payer_idx ON orders (payer_sub);
CREATE INDEX orders_event_idx ON orders (event_id);

CREATE TABLE order_lines (
  order_id bigint NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  entry_id bigint NOT NULL REFERENCES deposit_entries(id),
  race_id text NOT NULL,
  amount_cents integer NOT NULL,
  PRIMARY KEY (order_id, entry_id)
);

-- Money received for an order, once per provider reference (a webhook delivered twice, a bank
-- line matched twice: the second insert conflicts and changes nothing).
CREATE TABLE payments (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders(id),
  provider text NOT NULL CHECK (provider IN ('bank', 'mollie', 'stripe')),
  provider_ref text NOT NULL,
  amount_cents integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_ref)
);

CREATE TABLE bank_statements (
  id bigserial PRIMARY KEY,
  organisation_id uuid NOT NULL REFERENCES organisations(id),
  format text NOT NULL CHECK (format IN ('coda', 'camt053')),
  file_name text NOT NULL DEFAULT '',
  account text NOT NULL,
  imported_by uuid NOT NULL REFERENCES users(sub),
  imported_at timestamptz NOT NULL DEFAULT now(),
  movements integer NOT NULL,
  matched integer NOT NULL
);

-- Every movement imported, once per bank reference and organisation.
CREATE TABLE bank_lines (
  id bigserial PRIMARY KEY,
  statement_id bigint NOT NULL REFERENCES bank_statements(id),
  organisation_id uuid NOT NULL REFERENCES organisations(id),
  bank_ref text NOT NULL,
  amount_cents integer NOT NULL,
  currency text NOT NULL DEFAULT 'EUR',
  booking_date date,
  structured text,
  free_text text NOT NULL DEFAULT '',
  counterparty_name text NOT NULL DEFAULT '',
  counterparty_account text NOT NULL DEFAULT '',
  state text NOT NULL CHECK (state IN ('matched', 'manual', 'ignored', 'debit')),
  reason text,
  allocated_cents integer NOT NULL DEFAULT 0,
  UNIQUE (organisation_id, bank_ref)
);
CREATE INDEX bank_lines_queue_idx ON bank_lines (organisation_id, state);

-- Who matched what, when (actor null: the automatic matcher).
CREATE TABLE payment_audit (
  id bigserial PRIMARY KEY,
  organisation_id uuid NOT NULL REFERENCES organisations(id),
  order_id bigint REFERENCES orders(id),
  bank_line_id bigint REFERENCES bank_lines(id),
  action text NOT NULL,
  amount_cents integer,
  actor_sub uuid REFERENCES users(sub),
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_audit_org_idx ON payment_audit (organisation_id, created_at);

CREATE TABLE refunds (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders(id),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  reason text NOT NULL DEFAULT '',
  method text NOT NULL CHECK (method IN ('bank', 'provider')),
  state text NOT NULL CHECK (state IN ('pending', 'exported', 'done', 'failed')),
  iban text NOT NULL DEFAULT '',
  provider_ref text,
  created_by uuid NOT NULL REFERENCES users(sub),
  created_at timestamptz NOT NULL DEFAULT now(),
  exported_at timestamptz
);
CREATE INDEX refunds_order_idx ON refunds (order_id);

-- Provider notifications already handled (idempotency on the provider's id).
CREATE TABLE provider_webhooks (
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
