-- Confirmation of registration documents (issue 17, product.md "Confirmation"): documents sent by
-- clubs, companies and schools, their uploaded files (every version kept), their rows (raw cells,
-- mapped values, issues per field, duplicate link, decision, participant link), column mappings
-- remembered per sender, the history and the undo stack, and per-race confirmation settings
-- (places, date-based tariff; the bib range is the participants module's `bib_ranges`).
CREATE TABLE confirmation_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id),
  title text NOT NULL,
  sender_name text NOT NULL,
  sender_kind text NOT NULL CHECK (sender_kind IN ('club', 'company', 'school')),
  contact_name text NOT NULL DEFAULT '',
  contact_email text NOT NULL,
  default_race_id text REFERENCES races(id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'uploaded'
    CHECK (status IN ('uploaded', 'mapped', 'validated', 'partlyConfirmed', 'confirmed', 'closed', 'rejected')),
  version integer NOT NULL DEFAULT 0,
  sheet text,
  sheets jsonb NOT NULL DEFAULT '[]'::jsonb,
  headers jsonb NOT NULL DEFAULT '[]'::jsonb,
  mapping jsonb NOT NULL DEFAULT '{}'::jsonb,
  diff jsonb,
  -- The file version the rows were built from (a remap of the same version computes no diff).
  rows_version integer NOT NULL DEFAULT 0,
  reject_reason text,
  received_on date NOT NULL DEFAULT CURRENT_DATE,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX confirmation_documents_event_idx ON confirmation_documents (event_id);

CREATE TABLE confirmation_files (
  document_id uuid NOT NULL REFERENCES confirmation_documents(id) ON DELETE CASCADE,
  version integer NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('csv', 'xlsx')),
  content bytea NOT NULL,
  -- Every sheet's cells as read (`{sheet: string[][]}` as JSON text: never queried inside, and
  -- text costs PGlite a copy where jsonb costs a parse), so mapping never re-parses the file.
  cells text NOT NULL,
  uploaded_by uuid,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, version)
);

CREATE TABLE confirmation_rows (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  document_id uuid NOT NULL REFERENCES confirmation_documents(id) ON DELETE CASCADE,
  position integer NOT NULL,
  raw jsonb NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  issues jsonb NOT NULL DEFAULT '[]'::jsonb,
  duplicate_of jsonb,
  category text,
  decision text NOT NULL DEFAULT 'pending' CHECK (decision IN ('pending', 'confirmed', 'rejected')),
  reason text,
  -- The participant the row became (its id survives a bib change in the console).
  participant_id uuid,
  participant_race_id text,
  participant_bib text,
  change text CHECK (change IN ('added', 'changed', 'unchanged', 'removed')),
  UNIQUE (document_id, position)
);
CREATE INDEX confirmation_rows_participant_idx ON confirmation_rows (participant_race_id, participant_bib);

CREATE TABLE confirmation_mappings (
  sender_key text PRIMARY KEY,
  mapping jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE confirmation_history (
  id bigserial PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES confirmation_documents(id) ON DELETE CASCADE,
  actor_sub uuid,
  actor_email text NOT NULL DEFAULT '',
  action text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX confirmation_history_document_idx ON confirmation_history (document_id, id);

-- One entry per edit (a cell, a bulk action): the rows' state before it, restored by undo.
CREATE TABLE confirmation_edits (
  id bigserial PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES confirmation_documents(id) ON DELETE CASCADE,
  before jsonb NOT NULL,
  undone boolean NOT NULL DEFAULT false,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX confirmation_edits_document_idx ON confirmation_edits (document_id, id);

CREATE TABLE confirmation_race_settings (
  race_id text PRIMARY KEY REFERENCES races(id) ON DELETE CASCADE,
  capacity integer,
  -- `[{until: 'YYYY-MM-DD' | null, priceCents}]`: the first entry whose `until` is on or after
  -- the document's reception date applies (an early-bird tariff, then the normal one).
  tariffs jsonb NOT NULL DEFAULT '[]'::jsonb
);
