-- Deferral carried over to the next edition (issue 38). The organiser links an event to its next
-- edition (`next_event_id`, a setting of the registration form). A deferred entry becomes a
-- credit: what was paid for it, minus the policy's deferral fee. Once the event has a next edition,
-- each credit gets a discount code of that edition (`registration_codes`) that only its runner can
-- use (`owner_email`: the runner's e-mail must be the one entered), once (capacity 1), worth the
-- credit on the entry and its add-ons. The code is usable when the next edition's registration
-- opens (the race's opening time, as any entry); the runner sees it in My entries.
ALTER TABLE registration_events ADD COLUMN next_event_id text REFERENCES events(id) ON DELETE SET NULL;

-- A credit's code: only this runner may use it; never listed nor removed by the organiser's form.
ALTER TABLE registration_codes ADD COLUMN owner_email text;

CREATE TABLE registration_credits (
  id bigserial PRIMARY KEY,
  entry_id bigint NOT NULL UNIQUE REFERENCES registration_entries(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  email text NOT NULL,
  cents integer NOT NULL CHECK (cents >= 0),
  currency text NOT NULL,
  code_id bigint UNIQUE REFERENCES registration_codes(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registration_credits_event_idx ON registration_credits (event_id) WHERE code_id IS NULL;
