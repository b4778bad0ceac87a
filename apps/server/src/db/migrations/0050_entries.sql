-- Online entries (issue 38). A runner's entry is an order line of the existing orders (payments,
-- refunds, invoices) and, once confirmed, a row of the one participants table (no second table of
-- runners: `details` holds what the runner typed only while the place is held, and is cleared when
-- the participant row takes over).
--
-- Places, add-on units and code uses are counted in rows (`taken` confirmed, `held` waiting for a
-- payment) and changed only by conditional UPDATEs (`… WHERE taken + held + 1 <= capacity
-- RETURNING`), with a CHECK as the last word: no place is sold twice, on one node or several.

-- What the organiser sets for an event's entries: the hold while paying, how long a waitlist
-- invitation stays valid, whether paying on site is offered, the self-service policy (dates, fees,
-- refund tiers), the currency.
CREATE TABLE registration_events (
  event_id text PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
  hold_minutes integer NOT NULL DEFAULT 15 CHECK (hold_minutes BETWEEN 1 AND 1440),
  waitlist_minutes integer NOT NULL DEFAULT 1440 CHECK (waitlist_minutes BETWEEN 1 AND 20160),
  pay_on_site boolean NOT NULL DEFAULT false,
  currency text NOT NULL DEFAULT 'EUR',
  policy jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A race's registration: opening and closing, places, prices (tiers by date, by age, by member
-- code), age limits on race day, fields required, a guardian for minors.
CREATE TABLE registration_races (
  race_id text PRIMARY KEY REFERENCES races(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  opens_at timestamptz,
  closes_at timestamptz,
  capacity integer CHECK (capacity >= 0),
  taken integer NOT NULL DEFAULT 0,
  held integer NOT NULL DEFAULT 0,
  prices jsonb NOT NULL DEFAULT '{"tiers":[]}'::jsonb,
  min_age integer,
  max_age integer,
  required text[] NOT NULL DEFAULT '{}',
  guardian_for_minors boolean NOT NULL DEFAULT false,
  CONSTRAINT registration_races_places CHECK (taken >= 0 AND held >= 0 AND (capacity IS NULL OR taken + held <= capacity))
);
CREATE INDEX registration_races_event_idx ON registration_races (event_id);

-- The organiser's own questions: text, one of, several of, yes/no, number, date.
CREATE TABLE registration_questions (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  key text NOT NULL,
  label text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('text', 'one', 'several', 'yesno', 'number', 'date')),
  options text[] NOT NULL DEFAULT '{}',
  required boolean NOT NULL DEFAULT false,
  public boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  UNIQUE (event_id, key)
);

-- Add-ons with stock (a T-shirt per size, a meal, a bus seat): sold out is no longer offered.
CREATE TABLE registration_addons (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  key text NOT NULL,
  name text NOT NULL,
  price_cents integer NOT NULL CHECK (price_cents >= 0),
  capacity integer CHECK (capacity >= 0),
  taken integer NOT NULL DEFAULT 0,
  held integer NOT NULL DEFAULT 0,
  UNIQUE (event_id, key),
  CONSTRAINT registration_addons_stock CHECK (taken >= 0 AND held >= 0 AND (capacity IS NULL OR taken + held <= capacity))
);

-- The waiver's text, versioned: an entry stores the version accepted and when.
CREATE TABLE registration_waivers (
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version > 0),
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, version)
);

-- Discount codes: percent or amount, for a race or the event, limited uses and dates; a use is
-- held and counted like a place.
CREATE TABLE registration_codes (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  race_id text REFERENCES races(id) ON DELETE CASCADE,
  code text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('percent', 'amount')),
  value integer NOT NULL CHECK (value >= 0),
  capacity integer CHECK (capacity >= 0),
  taken integer NOT NULL DEFAULT 0,
  held integer NOT NULL DEFAULT 0,
  valid_from timestamptz,
  valid_until timestamptz,
  CONSTRAINT registration_codes_uses CHECK (taken >= 0 AND held >= 0 AND (capacity IS NULL OR taken + held <= capacity))
);
CREATE UNIQUE INDEX registration_codes_code_idx ON registration_codes (event_id, upper(code));

-- A runner's entry. `code` is the entry code (the QR for pickup): random, unguessable, stable.
CREATE TABLE registration_entries (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  race_id text NOT NULL REFERENCES races(id),
  order_id bigint REFERENCES orders(id),
  account_sub uuid REFERENCES users(sub),
  email text NOT NULL,
  lang text NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'fr')),
  state text NOT NULL CHECK (state IN ('held', 'confirmed', 'expired', 'cancelled', 'refunded', 'deferred')),
  participant_id uuid,
  details jsonb,
  answers jsonb NOT NULL DEFAULT '{}'::jsonb,
  addons jsonb NOT NULL DEFAULT '[]'::jsonb,
  code_id bigint REFERENCES registration_codes(id),
  member_code text,
  entry_cents integer NOT NULL DEFAULT 0,
  discount_cents integer NOT NULL DEFAULT 0,
  addons_cents integer NOT NULL DEFAULT 0,
  waiver_version integer,
  waiver_accepted_at timestamptz,
  hold_expires_at timestamptz,
  waitlist_id bigint,
  source text NOT NULL DEFAULT 'online' CHECK (source IN ('online', 'manual')),
  refund_due boolean NOT NULL DEFAULT false,
  mailed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registration_entries_event_idx ON registration_entries (event_id, created_at);
CREATE INDEX registration_entries_order_idx ON registration_entries (order_id);
CREATE INDEX registration_entries_account_idx ON registration_entries (account_sub);
CREATE INDEX registration_entries_held_idx ON registration_entries (hold_expires_at) WHERE state = 'held';

-- A full race's waitlist: first in, first out; an invitation holds a place (counted in `held`)
-- until `invited_until`, then passes on.
CREATE TABLE registration_waitlist (
  id bigserial PRIMARY KEY,
  race_id text NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  account_sub uuid REFERENCES users(sub),
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  lang text NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'fr')),
  state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'invited', 'entered', 'expired', 'left')),
  token text UNIQUE,
  invited_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registration_waitlist_race_idx ON registration_waitlist (race_id, state, id);

-- A runner's change that costs money (a move to a dearer race, a transfer fee): applied when its
-- order is paid. A move holds its place in the other race meanwhile (`held`).
CREATE TABLE registration_changes (
  id bigserial PRIMARY KEY,
  entry_id bigint NOT NULL REFERENCES registration_entries(id) ON DELETE CASCADE,
  order_id bigint NOT NULL REFERENCES orders(id),
  action text NOT NULL CHECK (action IN ('move', 'transfer', 'defer')),
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'expired')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registration_changes_order_idx ON registration_changes (order_id);

-- An entry order: the runner's order (no deposit, no document); its lines are its entries.
ALTER TABLE orders ADD COLUMN registration boolean NOT NULL DEFAULT false;
ALTER TABLE orders DROP CONSTRAINT orders_source_check;
ALTER TABLE orders ADD CONSTRAINT orders_source_check
  CHECK ((deposit_id IS NOT NULL AND payer_sub IS NOT NULL) OR document_id IS NOT NULL OR registration);
-- A refund made automatically (a payment arriving after its place was gone) has no person behind it.
ALTER TABLE refunds ALTER COLUMN created_by DROP NOT NULL;

ALTER TABLE audit_trail DROP CONSTRAINT IF EXISTS audit_trail_subject_check;
ALTER TABLE audit_trail ADD CONSTRAINT audit_trail_subject_check
  CHECK (subject IN ('participant', 'passing', 'payment', 'confirmation', 'entry'));
