-- Team entries (issue 38): relays and company challenges. A captain names the team for a race that
-- takes teams (`team_size`: most members, NULL: no teams); members join with the team's link
-- (`token`: random, unguessable). The captain pays for all (members wait in
-- `registration_team_members` until the captain's order holds their places) or each pays their own
-- (a member's order holds the place at once). Places are held and counted like individual entries.
ALTER TABLE registration_races ADD COLUMN team_size integer CHECK (team_size BETWEEN 2 AND 100);

CREATE TABLE registration_teams (
  id bigserial PRIMARY KEY,
  token text NOT NULL UNIQUE,
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  race_id text NOT NULL REFERENCES races(id) ON DELETE CASCADE,
  name text NOT NULL,
  captain_sub uuid NOT NULL REFERENCES users(sub),
  pays text NOT NULL CHECK (pays IN ('captain', 'each')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX registration_teams_name_idx ON registration_teams (race_id, lower(name));

-- Everyone who joined a team: what they typed (checked when they joined, again when the captain's
-- order holds the place) and, once an order holds their place, their entry.
CREATE TABLE registration_team_members (
  id bigserial PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES registration_teams(id) ON DELETE CASCADE,
  account_sub uuid REFERENCES users(sub),
  email text NOT NULL,
  lang text NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'fr')),
  runner jsonb NOT NULL,
  entry_code text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registration_team_members_team_idx ON registration_team_members (team_id, id);

ALTER TABLE registration_entries ADD COLUMN team_id bigint REFERENCES registration_teams(id);
CREATE INDEX registration_entries_team_idx ON registration_entries (team_id) WHERE team_id IS NOT NULL;
