-- Invoice numbers without gaps, never twice (issue 38: an entries order gets its invoice when it
-- is paid). One counter row per organisation, incremented by `UPDATE … RETURNING` in the
-- transaction that inserts the invoice: the row lock orders two nodes numbering at once, and a
-- rolled-back transaction rolls its number back with it (no gap). Starts from the invoices
-- already numbered (confirmation documents, issue 29).
CREATE TABLE invoice_counters (
  organisation_id uuid PRIMARY KEY REFERENCES organisations(id) ON DELETE CASCADE,
  last integer NOT NULL CHECK (last >= 0)
);
INSERT INTO invoice_counters (organisation_id, last)
SELECT organisation_id, max(number) FROM invoices GROUP BY organisation_id;
