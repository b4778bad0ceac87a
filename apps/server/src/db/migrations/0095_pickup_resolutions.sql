-- Race-day pickup (issue 39): a conflict (a runner handed out by two phones offline) is resolved
-- by keeping one handout and undoing the other, with who and when. A conflict remembers the
-- handout it met (`against_id`); `resolution` says which one was kept; a kept handout undone by
-- a resolution is `undone` (both stay on record).
ALTER TABLE pickup_handouts DROP CONSTRAINT IF EXISTS pickup_handouts_state_check;
ALTER TABLE pickup_handouts ADD CONSTRAINT pickup_handouts_state_check
  CHECK (state IN ('kept', 'conflict', 'resolved', 'undone'));
ALTER TABLE pickup_handouts ADD COLUMN against_id bigint REFERENCES pickup_handouts(id) ON DELETE SET NULL;
ALTER TABLE pickup_handouts ADD COLUMN resolution text CHECK (resolution IN ('first', 'second'));
UPDATE pickup_handouts h SET against_id = k.id
  FROM pickup_handouts k
 WHERE k.participant_id = h.participant_id AND k.state = 'kept' AND h.state IN ('conflict', 'resolved');
UPDATE pickup_handouts SET resolution = 'first' WHERE state = 'resolved';
