-- Issue 38: a runner still waiting when their race's registration closes (its closing time
-- passed, or the organiser moved it to now) is told once that the waitlist will not give them a
-- place. The sweep marks the row `closed` with the time it was told (`closed_at`) in the
-- transaction that stores the mail in the outbox, so the mail goes once whatever the retries or
-- nodes. A closed row no longer counts as waiting; the runner may join again if entries reopen.
ALTER TABLE registration_waitlist DROP CONSTRAINT IF EXISTS registration_waitlist_state_check;
ALTER TABLE registration_waitlist ADD CONSTRAINT registration_waitlist_state_check
  CHECK (state IN ('waiting', 'invited', 'entered', 'expired', 'left', 'closed'));
ALTER TABLE registration_waitlist ADD COLUMN closed_at timestamptz;
