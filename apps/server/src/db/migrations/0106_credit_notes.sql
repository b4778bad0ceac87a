-- Issue 38: a credit note (avoir) for each refund of an invoiced order (French/EU invoicing: a
-- numbered document cancelling all or part of an invoice, never an edited invoice). Its number is
-- taken from the organisation's one counter (`invoice_counters`, 0099) in the refund's
-- transaction, so invoices and credit notes share one sequence without gaps, never twice.
CREATE TABLE credit_notes (
  organisation_id uuid NOT NULL REFERENCES organisations(id),
  number integer NOT NULL CHECK (number > 0),
  order_id bigint NOT NULL REFERENCES orders(id),
  refund_id bigint NOT NULL UNIQUE REFERENCES refunds(id),
  invoice_number integer NOT NULL,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  issued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, number)
);
CREATE INDEX credit_notes_order_idx ON credit_notes (order_id);
