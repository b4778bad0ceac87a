-- Race-day pickup (issue 39): the pickup staff role (granted like timekeepers), what volunteers
-- did at the bib tables, and what they took on site.

ALTER TABLE organisation_members DROP CONSTRAINT IF EXISTS organisation_members_role_check;
ALTER TABLE organisation_members ADD CONSTRAINT organisation_members_role_check
  CHECK (role IN ('owner', 'staff', 'timekeeper', 'pickup'));
ALTER TABLE organisation_invitations DROP CONSTRAINT IF EXISTS organisation_invitations_role_check;
ALTER TABLE organisation_invitations ADD CONSTRAINT organisation_invitations_role_check
  CHECK (role IN ('owner', 'staff', 'timekeeper', 'pickup'));

-- Every operation a volunteer's phone sent, by the id the phone gave it: sent again (a reply lost,
-- the network back after an offline hour), it is answered from here and changes nothing.
CREATE TABLE pickup_operations (
  op_id text PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('handout', 'bib', 'chip', 'pay', 'late')),
  participant_id uuid,
  answer jsonb NOT NULL,
  actor_sub uuid REFERENCES users(sub) ON DELETE SET NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pickup_operations_event_idx ON pickup_operations (event_id, received_at);

-- A runner's handout: one kept per runner; a second one (another phone, offline) is kept as a
-- conflict for the organiser to resolve, never dropped.
CREATE TABLE pickup_handouts (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  participant_id uuid NOT NULL,
  race_id text NOT NULL,
  op_id text NOT NULL UNIQUE,
  state text NOT NULL CHECK (state IN ('kept', 'conflict', 'resolved')),
  items jsonb NOT NULL DEFAULT '[]'::jsonb,
  id_note text NOT NULL DEFAULT '',
  device text NOT NULL DEFAULT '',
  actor_sub uuid REFERENCES users(sub) ON DELETE SET NULL,
  actor_email text NOT NULL DEFAULT '',
  -- When the volunteer tapped "handed out" (the phone's clock, offline too), and when it arrived.
  handed_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  resolved_by text,
  resolved_at timestamptz
);
CREATE UNIQUE INDEX pickup_handouts_kept_idx ON pickup_handouts (participant_id) WHERE state = 'kept';
CREATE INDEX pickup_handouts_event_idx ON pickup_handouts (event_id, state);

-- Money taken at the bib tables (an unpaid balance, a late entry): method and amount, beside the
-- payment the payments module records for the order.
CREATE TABLE pickup_payments (
  op_id text PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  participant_id uuid,
  order_id bigint,
  method text NOT NULL CHECK (method IN ('cash', 'card')),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  actor_sub uuid REFERENCES users(sub) ON DELETE SET NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pickup_payments_event_idx ON pickup_payments (event_id);
