-- Issue 29: an online payment counts only for the session Tempora opened for the order, at the
-- amount it asked: the provider's id is stored already (provider_payment_id), its amount now.
ALTER TABLE orders ADD COLUMN provider_amount_cents integer;
