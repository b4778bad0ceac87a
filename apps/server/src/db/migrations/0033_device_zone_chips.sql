-- One front door for timing reads (issue 26): per device, the IANA time zone its clock shows
-- (wall-clock protocols: Wiclax, MYLAPS, ChronoTrack, RaceResult decoders; null = UTC) and how its
-- chip codes are read (`as-is`, `strip-zeros`: leading zeros dropped, `epc-bib`: the EPC holds the
-- bib, leading zeros dropped).
ALTER TABLE device_connectors ADD COLUMN time_zone text;
ALTER TABLE device_connectors ADD COLUMN chip_format text NOT NULL DEFAULT 'as-is';
