-- An uploaded file's bytes in pieces of 256 KB (issue 14): appending to one bytea rewrote the whole
-- file at every piece, and near the end of a 3 MB file one statement held PGlite's (main) thread for
-- 55-170 ms. `import_uploads.data` stays for files stored before (empty for new ones).
CREATE TABLE import_upload_pieces (
  upload_id uuid NOT NULL REFERENCES import_uploads(id) ON DELETE CASCADE,
  position integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (upload_id, position)
);
