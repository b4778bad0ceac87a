-- Issue 40, the runner's own space: claims and the public runner page.
--
-- A claim asks that a result timed without an account (an import, a timed list, a deposit) become
-- the claimant's: proven by a code sent to the e-mail the organiser has for that entry
-- (method 'email'), or, when the organiser has none, decided by the organiser ('organiser').
-- Until it is confirmed the result is never shown as the claimant's; confirming sets
-- participants.account_id (0065). The code is stored as its SHA-256 only.
CREATE TABLE runner_claims (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  participant_id uuid NOT NULL REFERENCES participants(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES users(sub) ON DELETE CASCADE,
  method text NOT NULL CHECK (method IN ('email', 'organiser')),
  code_hash text,
  attempts integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'refused', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  decided_at timestamptz,
  decided_by uuid
);
-- One open claim per result and account (asking again replaces the code).
CREATE UNIQUE INDEX runner_claims_open_idx ON runner_claims (participant_id, account_id) WHERE status = 'pending';
CREATE INDEX runner_claims_account_idx ON runner_claims (account_id);

-- The public runner page is opt-in (off by default), reached by a short link `#/r/{slug}`.
ALTER TABLE users ADD COLUMN public_profile boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN public_slug text UNIQUE;
