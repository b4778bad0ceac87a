-- Content (issue 8): CMS pages, contacts and contact messages, streams, photos, series standings.

-- CMS pages of an event, per `db` ('main' for the event's own pages, else a context db). A page
-- with children is a folder of the navigation tree (spec §3 node: Id, DisplayName, Folders, Leafs, Childs).
CREATE TABLE cms_pages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  db text NOT NULL DEFAULT 'main',
  key text NOT NULL,
  parent_key text,
  position integer NOT NULL DEFAULT 0,
  title_en text NOT NULL,
  title_fr text NOT NULL,
  body_en text NOT NULL DEFAULT '',
  body_fr text NOT NULL DEFAULT '',
  published boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, db, key)
);

CREATE TABLE contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  role text NOT NULL,
  name text NOT NULL,
  email text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX contacts_event_idx ON contacts (event_id, position);

CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  name text NOT NULL,
  email text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  ip text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE streams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  title text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('youtube', 'hls')),
  url text NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX streams_event_idx ON streams (event_id, starts_at);

CREATE TABLE photos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  file_name text NOT NULL,
  caption text NOT NULL DEFAULT '',
  bibs text[] NOT NULL DEFAULT '{}',
  width integer NOT NULL,
  height integer NOT NULL,
  taken_at timestamptz,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  uploaded_by text
);
CREATE INDEX photos_event_idx ON photos (event_id, uploaded_at DESC);
CREATE INDEX photos_bibs_idx ON photos USING gin (bibs);

-- A series (challenge) aggregates points over races; `id` is the spec's `{context}` of /misc/crac/{context}.
CREATE TABLE series (
  id text PRIMARY KEY,
  organisation_id uuid NOT NULL REFERENCES organisations(id),
  name text NOT NULL,
  points integer[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE series_races (
  series_id text NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  race_key text NOT NULL,
  name text NOT NULL,
  race_date date NOT NULL,
  live boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  PRIMARY KEY (series_id, race_key)
);

-- Per-race finish positions within a category (stored here: the results engine may not hold them).
CREATE TABLE series_results (
  series_id text NOT NULL,
  race_key text NOT NULL,
  athlete_key text NOT NULL,
  name text NOT NULL,
  category text NOT NULL,
  position integer NOT NULL CHECK (position > 0),
  PRIMARY KEY (series_id, race_key, athlete_key),
  FOREIGN KEY (series_id, race_key) REFERENCES series_races(series_id, race_key) ON DELETE CASCADE
);
