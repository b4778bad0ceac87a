-- Issue 40, the runner's own space: privacy by the runner's choice.
--
-- participants.account_id is the account a participant belongs to: set when an entry is made with
-- an account (issue 38, online entries: an entry's participant carries its buyer's account) or
-- when the runner proves a claim on a result timed without one (issue 40). NULL for everyone
-- else; an erased account leaves its rows anonymous (ON DELETE SET NULL). Results "of mine" are
-- exactly the rows with my account here — never a guess by name.
ALTER TABLE participants ADD COLUMN account_id uuid REFERENCES users(sub) ON DELETE SET NULL;
CREATE INDEX participants_account_idx ON participants (account_id) WHERE account_id IS NOT NULL;

-- The runner hid their name from public results and start lists ("Hidden runner", ranks
-- unchanged): read by the results' public projection of a participant (results/public-runner.ts),
-- which every public view, export, feed, webhook, search and the map is built from. The update
-- bumps the context's results_stamp (0043), so no older report snapshot is served again.
ALTER TABLE participants ADD COLUMN name_hidden boolean NOT NULL DEFAULT false;

-- "Hide my name everywhere": the account's choice, applied to every participant of the account and
-- to each one linked later.
ALTER TABLE users ADD COLUMN hide_results boolean NOT NULL DEFAULT false;
