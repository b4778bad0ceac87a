-- Issue 40, the runner's own space: their data (GDPR articles 15 and 17) and how long an event
-- keeps personal data.
--
-- How many days after its last day an event keeps its runners' personal data (names, birth
-- dates, e-mails, phones, answers...); NULL: until the organiser deletes them. A scheduled job
-- anonymises each event past its time once (`personal_data_anonymised_at`): results stay, as
-- anonymous rows with the same times and ranks.
ALTER TABLE events ADD COLUMN retention_days integer CHECK (retention_days BETWEEN 0 AND 3650);
ALTER TABLE events ADD COLUMN personal_data_anonymised_at timestamptz;
CREATE INDEX events_retention_idx ON events (end_date) WHERE retention_days IS NOT NULL
  AND personal_data_anonymised_at IS NULL;

-- An erased account leaves the orders it paid (accounting keeps amounts, never the person): a
-- group deposit's order may then have no payer.
ALTER TABLE orders DROP CONSTRAINT orders_source_check;
ALTER TABLE orders ADD CONSTRAINT orders_source_check
  CHECK (deposit_id IS NOT NULL OR document_id IS NOT NULL OR registration);

-- The organiser's record of what was removed and when (an erased account, an event's data past
-- its time): subject `privacy`, counts only, never personal data.
ALTER TABLE audit_trail DROP CONSTRAINT IF EXISTS audit_trail_subject_check;
ALTER TABLE audit_trail ADD CONSTRAINT audit_trail_subject_check
  CHECK (subject IN ('participant', 'passing', 'payment', 'confirmation', 'entry', 'privacy'));
