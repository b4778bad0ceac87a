-- Timing and results (issue 6): contexts, races, timing points, participants, devices, passings,
-- report groups and reports. Passings are never deleted: a correction is the read sent again
-- with deleted = true (the results engine's rule), so the table is its own audit trail.
CREATE TABLE contexts (
  db text PRIMARY KEY,
  event_id text NOT NULL REFERENCES events(id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contexts_event_idx ON contexts (event_id);

CREATE TABLE races (
  id text PRIMARY KEY,
  db text NOT NULL REFERENCES contexts(db),
  name text NOT NULL,
  race_date date NOT NULL,
  distance_m integer NOT NULL CHECK (distance_m > 0),
  start_type text NOT NULL CHECK (start_type IN ('mass', 'waves', 'individual')),
  gun_time_ms bigint,
  waves jsonb NOT NULL DEFAULT '[]'::jsonb,
  categories jsonb NOT NULL DEFAULT '[]'::jsonb,
  rules jsonb NOT NULL DEFAULT '{}'::jsonb,
  course jsonb,
  position integer NOT NULL DEFAULT 0,
  epoch integer NOT NULL DEFAULT 1
);
CREATE INDEX races_db_idx ON races (db);

CREATE TABLE timing_points (
  race_id text NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  key text NOT NULL,
  name text NOT NULL,
  distance_m double precision NOT NULL,
  position integer NOT NULL,
  is_start boolean NOT NULL DEFAULT false,
  lat double precision,
  lon double precision,
  PRIMARY KEY (race_id, key)
);

CREATE TABLE participants (
  race_id text NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  bib text NOT NULL,
  chips text[] NOT NULL DEFAULT '{}',
  first_name text NOT NULL,
  last_name text NOT NULL,
  gender text NOT NULL CHECK (gender IN ('M', 'F', 'X')),
  age integer,
  birth_date date,
  nationality text NOT NULL DEFAULT '',
  club text NOT NULL DEFAULT '',
  wave text,
  start_time_ms bigint,
  status text NOT NULL DEFAULT 'registered' CHECK (status IN ('registered', 'DNS', 'DNF', 'DSQ')),
  category text,
  tracking_key text NOT NULL UNIQUE,
  PRIMARY KEY (race_id, bib)
);

CREATE TABLE devices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  db text NOT NULL REFERENCES contexts(db),
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  point_key text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE passings (
  seq bigserial PRIMARY KEY,
  db text NOT NULL REFERENCES contexts(db),
  passing_id text NOT NULL,
  bib text,
  chip text,
  point_key text NOT NULL,
  time_ms bigint NOT NULL,
  source text NOT NULL CHECK (source IN ('decoder', 'manual', 'import')),
  device_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  created_by text,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (db, passing_id, deleted)
);

CREATE TABLE report_groups (
  db text NOT NULL REFERENCES contexts(db),
  key text NOT NULL,
  name jsonb NOT NULL,
  position integer NOT NULL DEFAULT 0,
  PRIMARY KEY (db, key)
);

CREATE TABLE reports (
  db text NOT NULL,
  group_key text NOT NULL,
  key text NOT NULL,
  name jsonb NOT NULL,
  definition jsonb NOT NULL,
  position integer NOT NULL DEFAULT 0,
  PRIMARY KEY (db, group_key, key),
  FOREIGN KEY (db, group_key) REFERENCES report_groups(db, key) ON DELETE CASCADE
);
