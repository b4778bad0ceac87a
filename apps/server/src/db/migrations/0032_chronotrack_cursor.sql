-- ChronoTrack resumes from the last stored read (issue 26): per client location, the sequence
-- number of the last read stored, so a reconnection asks `start~<location>~<next>` instead of
-- replaying the session.
ALTER TABLE device_connectors ADD COLUMN cursor_locations jsonb NOT NULL DEFAULT '{}'::jsonb;
