-- Issue 29: every committed participant import is kept in the event's history, with the rows it
-- refused (downloadable afterwards, with their line and reason) and what it did to each runner,
-- so it can be undone: `previous` NULL for a runner it created (undo removes it), else the fields
-- it changed as they were before (undo puts them back).
CREATE TABLE participant_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  race_id text NOT NULL,
  file_name text NOT NULL,
  header jsonb NOT NULL DEFAULT '[]'::jsonb,
  refused jsonb NOT NULL DEFAULT '[]'::jsonb,
  imported integer NOT NULL,
  total integer NOT NULL,
  actor_sub text,
  actor_email text NOT NULL DEFAULT '',
  at timestamptz NOT NULL DEFAULT now(),
  undone_at timestamptz,
  undone_by text
);
CREATE INDEX participant_imports_event_idx ON participant_imports (event_id, at);

CREATE TABLE participant_import_items (
  import_id uuid NOT NULL REFERENCES participant_imports(id) ON DELETE CASCADE,
  participant_id uuid NOT NULL,
  previous jsonb,
  PRIMARY KEY (import_id, participant_id)
);
