-- Issue 38, a deferral's place: a credit reserves a place in the next edition's race that matches
-- the deferred one (same name, else same distance, else the edition's only race), as RunSignup's
-- deferrals do. The place is counted in that race's `held` (like a waitlist invitation's), so the
-- places left shown, the rush's conditional holds, the CHECK constraint and the waitlist all count
-- it without a rule of their own. `place_state`: reserved (counted in `held`), used (an entry with
-- the credit's code holds or took it), released (registration closed, or the credit used in
-- another race). NULL: none yet (no matching race open for entries, or it was full) — tried again
-- when either edition's settings are saved.
-- The rest of a credit larger than the entry it pays (`remainder_cents`) is refunded through the
-- refund flow on the order that paid the deferred entry, once the new entry is confirmed;
-- `remainder_refund_id` is that refund (set once: never twice).
ALTER TABLE registration_credits
  ADD COLUMN place_race_id text REFERENCES races(id) ON DELETE SET NULL,
  ADD COLUMN place_state text CHECK (place_state IN ('reserved', 'used', 'released')),
  ADD COLUMN remainder_cents integer CHECK (remainder_cents >= 0),
  ADD COLUMN remainder_refund_id bigint REFERENCES refunds(id);
CREATE INDEX registration_credits_place_idx ON registration_credits (place_race_id) WHERE place_state = 'reserved';
