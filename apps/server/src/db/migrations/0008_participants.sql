-- Participants managed from the organiser console (issue 14, part B).
-- A participant gets its own id: an imported runner may wait for a bib (assigned later from the
-- race's range), so the bib leaves the primary key and is unique per race among the runners not
-- deleted. Deletion is soft (deleted_at), allowed only while the runner has no passings.
ALTER TABLE participants ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE participants DROP CONSTRAINT participants_pkey;
ALTER TABLE participants ADD PRIMARY KEY (id);
ALTER TABLE participants ALTER COLUMN bib DROP NOT NULL;
ALTER TABLE participants ADD COLUMN email text NOT NULL DEFAULT '';
ALTER TABLE participants ADD COLUMN deleted_at timestamptz;
CREATE UNIQUE INDEX participants_race_bib_idx ON participants (race_id, bib) WHERE deleted_at IS NULL;

-- Every change of a participant: who, when, and each field before/after.
CREATE TABLE participant_audit (
  id bigserial PRIMARY KEY,
  participant_id uuid NOT NULL,
  race_id text NOT NULL,
  action text NOT NULL CHECK (action IN ('create', 'update', 'delete', 'import', 'bib', 'chip')),
  changes jsonb NOT NULL DEFAULT '[]'::jsonb,
  actor_sub text,
  actor_email text NOT NULL DEFAULT '',
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX participant_audit_participant_idx ON participant_audit (participant_id, id);

-- A file uploaded for import (participants or chips), kept until imported or replaced.
CREATE TABLE import_uploads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  file_name text NOT NULL,
  format text NOT NULL CHECK (format IN ('csv', 'xlsx')),
  data bytea NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_uploads_event_idx ON import_uploads (event_id);

-- The column mapping an organisation used last, per kind of file (participants, chips).
CREATE TABLE import_mappings (
  organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  kind text NOT NULL,
  mapping jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, kind)
);

-- The bib range of a race, from which runners without a bib get one.
CREATE TABLE bib_ranges (
  race_id text PRIMARY KEY REFERENCES races(id) ON DELETE CASCADE,
  first_bib integer NOT NULL CHECK (first_bib > 0),
  last_bib integer NOT NULL,
  CHECK (last_bib >= first_bib)
);
