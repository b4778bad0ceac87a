-- Issue 38: a runner whose waitlist invitation ran out unused (the place passed to the next, or
-- the race closed meanwhile) is told once. The sweep sets `lapsed_told_at` in the transaction that
-- stores the mail in the outbox, so the mail goes once whatever the retries or nodes. Invitations
-- that lapsed before this migration are not told now.
ALTER TABLE registration_waitlist ADD COLUMN lapsed_told_at timestamptz;
UPDATE registration_waitlist SET lapsed_told_at = now() WHERE state = 'expired';
