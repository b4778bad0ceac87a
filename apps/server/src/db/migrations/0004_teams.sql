-- Issue 7: teams are the clubs of a race (a club classification). A team is shared through an
-- opaque, unguessable token, made once per (context, race, club) and kept.
CREATE TABLE team_tokens (
  token text PRIMARY KEY,
  db text NOT NULL REFERENCES contexts (db) ON DELETE CASCADE,
  race_id text NOT NULL,
  team text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (db, race_id, team)
);
