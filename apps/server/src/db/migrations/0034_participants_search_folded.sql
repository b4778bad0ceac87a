-- Issue 29: participant search folds accents for every script with the ONE fold of the product
-- (packages/domain foldText), which SQL cannot compute: the server writes the folded
-- "first last club" into search_folded when it stores a participant. A writer that changes a
-- name or club without it leaves NULL (the trigger below), and the search folds those rows
-- before it reads (participants/repository.ts refreshSearchFolded) — so existing rows are
-- backfilled on the first search of their event, through the partial index of unfolded rows.
ALTER TABLE participants ADD COLUMN search_folded text;
CREATE INDEX participants_unfolded_idx ON participants (race_id) WHERE search_folded IS NULL;
CREATE INDEX participants_search_folded_idx ON participants (search_folded text_pattern_ops);

CREATE FUNCTION participants_search_folded_stale() RETURNS trigger AS $$
BEGIN
  IF (NEW.first_name, NEW.last_name, NEW.club) IS DISTINCT FROM (OLD.first_name, OLD.last_name, OLD.club)
     AND NEW.search_folded IS NOT DISTINCT FROM OLD.search_folded THEN
    NEW.search_folded := NULL;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER participants_search_folded_stale BEFORE UPDATE ON participants
  FOR EACH ROW EXECUTE FUNCTION participants_search_folded_stale();
