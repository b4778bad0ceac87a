-- Race day (issue 15): device connectors, the corrections audit trail, participant status reasons.
--
-- A connector is the protocol side of a device (devices, 0002): which vendor protocol it speaks,
-- where (Tempora connects to host:port, or listens on listen_port), the timing point it feeds, the
-- clock offset added to its times, and the cursor it resumes from (RaceResult: file and passing
-- number of the last stored read). `point_map` maps a vendor's locations/loops/antennas to points.
CREATE TABLE device_connectors (
  device_id uuid PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
  db text NOT NULL REFERENCES contexts(db),
  kind text NOT NULL CHECK (kind IN ('tempora', 'raceresult', 'wiclax', 'mylaps', 'chronotrack', 'impinj', 'rrexporter')),
  host text,
  port integer CHECK (port BETWEEN 1 AND 65535),
  listen_port integer CHECK (listen_port BETWEEN 1 AND 65535),
  clock_offset_ms integer NOT NULL DEFAULT 0,
  enabled boolean NOT NULL DEFAULT true,
  point_map jsonb NOT NULL DEFAULT '{}'::jsonb,
  cursor_file integer,
  cursor_passing integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_connectors_db_idx ON device_connectors (db);

-- Every correction a timekeeper makes (void, restore, retime, move, add, status, gun, wave, start),
-- with who, when and why. Reads are never deleted: a correction stores new passings (the void
-- marker, the replacement read) whose ids it lists, so an undo knows what to reverse.
CREATE TABLE passing_audit (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  db text NOT NULL REFERENCES contexts(db),
  action text NOT NULL,
  passing_id text,
  bib text,
  race_id text,
  before jsonb,
  after jsonb,
  reason text NOT NULL DEFAULT '',
  actor text,
  undo_of uuid,
  undone_by uuid,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX passing_audit_db_idx ON passing_audit (db, at);

-- DNS / DNF / DSQ come with a reason (shown to the timekeeper, not to spectators).
ALTER TABLE participants ADD COLUMN status_reason text;
