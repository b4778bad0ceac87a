-- Confirmations not mailed yet (issue 38): the mails are made 25 at a time from this index
-- (`mails.ts`), not from a scan of every entry of every event per batch (the rush confirms
-- 5,000 entries in a minute; the sweep looks every 20 s).
CREATE INDEX registration_entries_unmailed_idx ON registration_entries (id)
  WHERE state = 'confirmed' AND mailed_at IS NULL;
-- Payments that came after their place was gone, to refund (looked at after every batch of payments).
CREATE INDEX registration_entries_refund_due_idx ON registration_entries (id)
  WHERE refund_due AND state = 'expired';
