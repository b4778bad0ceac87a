-- Reading a context's passings after a seq (every node's catch-up, twice a second under reads)
-- scanned all of the context's passings through the (db, passing_id, deleted) key: 45 ms for
-- Boston's 290,000, during which PGlite holds the event loop. This index makes it a range scan.
CREATE INDEX passings_db_seq_idx ON passings (db, seq);
