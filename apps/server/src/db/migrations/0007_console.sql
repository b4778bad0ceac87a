-- Organiser console (issue 14 part A): organisations' details, invitations of members, events'
-- visibility / time zone / place coordinates / logo, timing points' French name and kind, races'
-- age basis and team rule, report definitions' visibility.

ALTER TABLE organisations ADD COLUMN country text NOT NULL DEFAULT '';
ALTER TABLE organisations ADD COLUMN contact_email text NOT NULL DEFAULT '';

-- A single-use invitation to join an organisation: only the SHA-256 of its link's token is kept.
CREATE TABLE organisation_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'staff', 'timekeeper')),
  token_hash text NOT NULL UNIQUE,
  invited_by uuid REFERENCES users(sub) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users(sub) ON DELETE SET NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX organisation_invitations_org_idx ON organisation_invitations (organisation_id, created_at);

-- Draft events are invisible to spectators (existing events stay public). The time zone (IANA)
-- is the one every time of day of the event is shown and typed in.
ALTER TABLE events ADD COLUMN visibility text NOT NULL DEFAULT 'public' CHECK (visibility IN ('draft', 'public'));
ALTER TABLE events ADD COLUMN time_zone text NOT NULL DEFAULT 'Europe/Brussels';
ALTER TABLE events ADD COLUMN place_lat double precision;
ALTER TABLE events ADD COLUMN place_lon double precision;
-- Version (content hash) of the uploaded logo at DATA_DIR/files/logos/{id}.webp; null: none.
ALTER TABLE events ADD COLUMN logo_version text;
ALTER TABLE events ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- `name` stays the English (and engine) name; `name_fr` the French one.
ALTER TABLE timing_points ADD COLUMN name_fr text NOT NULL DEFAULT '';
ALTER TABLE timing_points ADD COLUMN kind text NOT NULL DEFAULT 'split' CHECK (kind IN ('start', 'split', 'finish'));
UPDATE timing_points SET kind = 'start' WHERE is_start;
UPDATE timing_points t SET kind = 'finish'
  WHERE NOT t.is_start AND t.position = (SELECT max(position) FROM timing_points u WHERE u.race_id = t.race_id);
UPDATE timing_points SET name_fr = name;

-- Categories by age on race day, or by birth year (age = race year − birth year: the FFA/World
-- Athletics masters rule); the team rule (best N finishers of teams of at least M).
ALTER TABLE races ADD COLUMN age_basis text NOT NULL DEFAULT 'raceDay' CHECK (age_basis IN ('raceDay', 'birthYear'));
ALTER TABLE races ADD COLUMN team_rule jsonb NOT NULL DEFAULT '{"best": 3, "minMembers": 3}'::jsonb;

ALTER TABLE reports ADD COLUMN hidden boolean NOT NULL DEFAULT false;
