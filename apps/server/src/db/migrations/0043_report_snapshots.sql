-- Issue 27, first open after a restart: a finished event's report tables are kept as a snapshot,
-- so a restarted node answers the first rows without loading 264,000 passings and rebuilding
-- (modules/results/report-snapshots.ts). A snapshot names the state it was built from: the
-- context's results_stamp and its highest passing seq. Passings only ever grow (a correction is
-- a new passing, 0002_results.sql), so their seq covers them; every other table the results are
-- built from bumps results_stamp in the same transaction as the change (the triggers below), on
-- whichever node made it. A snapshot whose name is not the current one is never served.
ALTER TABLE contexts ADD COLUMN results_stamp bigint NOT NULL DEFAULT 0;

CREATE TABLE report_snapshots (
  db text NOT NULL REFERENCES contexts(db) ON DELETE CASCADE,
  group_key text NOT NULL,
  report_key text NOT NULL,
  -- Rows are stored in chunks of a few thousand (JSON text of the rows' array): a first page
  -- reads and parses only the first chunk.
  chunk integer NOT NULL,
  stamp text NOT NULL,
  version bigint NOT NULL,
  total integer NOT NULL,
  -- The table without its rows (title, columns, key and order fields), on chunk 0 only.
  head text,
  rows text NOT NULL,
  PRIMARY KEY (db, group_key, report_key, chunk)
);

-- Bumps the stamp of the contexts named in `dbs` (a statement's changed rows).
CREATE FUNCTION results_stamp_bump(dbs text[]) RETURNS void AS $$
BEGIN
  UPDATE contexts SET results_stamp = results_stamp + 1 WHERE db = ANY (dbs);
END;
$$ LANGUAGE plpgsql;

-- Participants: one bump per statement (an import inserts 100 rows a statement). An update that
-- only refreshed the search column (0034) changes no result and bumps nothing.
CREATE FUNCTION participants_results_stamp() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT r.db FROM races r WHERE r.id IN (SELECT race_id FROM new_rows)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT r.db FROM races r WHERE r.id IN (SELECT race_id FROM old_rows)));
  ELSE
    PERFORM results_stamp_bump(ARRAY(
      SELECT DISTINCT r.db FROM new_rows n JOIN old_rows o ON o.id = n.id
        JOIN races r ON r.id = n.race_id OR r.id = o.race_id
       WHERE to_jsonb(n) - 'search_folded' IS DISTINCT FROM to_jsonb(o) - 'search_folded'));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER participants_results_stamp_ins AFTER INSERT ON participants
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION participants_results_stamp();
CREATE TRIGGER participants_results_stamp_upd AFTER UPDATE ON participants
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION participants_results_stamp();
CREATE TRIGGER participants_results_stamp_del AFTER DELETE ON participants
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION participants_results_stamp();

-- Tables with a `db` column (races, report groups, reports; passings deleted or updated, which
-- only the demo's replay does).
CREATE FUNCTION db_rows_results_stamp() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT db FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT db FROM old_rows));
  ELSE
    PERFORM results_stamp_bump(ARRAY(SELECT db FROM new_rows UNION SELECT db FROM old_rows));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER races_results_stamp_ins AFTER INSERT ON races
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER races_results_stamp_upd AFTER UPDATE ON races
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER races_results_stamp_del AFTER DELETE ON races
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER report_groups_results_stamp_ins AFTER INSERT ON report_groups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER report_groups_results_stamp_upd AFTER UPDATE ON report_groups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER report_groups_results_stamp_del AFTER DELETE ON report_groups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER reports_results_stamp_ins AFTER INSERT ON reports
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER reports_results_stamp_upd AFTER UPDATE ON reports
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER reports_results_stamp_del AFTER DELETE ON reports
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER passings_results_stamp_upd AFTER UPDATE ON passings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();
CREATE TRIGGER passings_results_stamp_del AFTER DELETE ON passings
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION db_rows_results_stamp();

-- Timing points (keyed by race).
CREATE FUNCTION race_rows_results_stamp() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT r.db FROM races r WHERE r.id IN (SELECT race_id FROM new_rows)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT r.db FROM races r WHERE r.id IN (SELECT race_id FROM old_rows)));
  ELSE
    PERFORM results_stamp_bump(ARRAY(SELECT DISTINCT r.db FROM races r
      WHERE r.id IN (SELECT race_id FROM new_rows UNION SELECT race_id FROM old_rows)));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER timing_points_results_stamp_ins AFTER INSERT ON timing_points
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION race_rows_results_stamp();
CREATE TRIGGER timing_points_results_stamp_upd AFTER UPDATE ON timing_points
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION race_rows_results_stamp();
CREATE TRIGGER timing_points_results_stamp_del AFTER DELETE ON timing_points
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION race_rows_results_stamp();

-- The event's time zone is in every time-of-day cell.
CREATE FUNCTION events_results_stamp() RETURNS trigger AS $$
BEGIN
  PERFORM results_stamp_bump(ARRAY(SELECT db FROM contexts WHERE event_id = NEW.id));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER events_results_stamp AFTER UPDATE OF time_zone ON events
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION events_results_stamp();
