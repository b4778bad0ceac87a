-- Issue 29: a confirmed confirmation document (a school's, a club's) becomes an order of its
-- sender, paid by bank transfer with a structured communication like a deposit's order (same
-- matching, refunds and exports), with an invoice numbered in sequence per organisation. Such an
-- order has no deposit and no payer account: the document's sender and contact stand for them.
ALTER TABLE orders ALTER COLUMN deposit_id DROP NOT NULL;
ALTER TABLE orders ALTER COLUMN payer_sub DROP NOT NULL;
ALTER TABLE orders ADD COLUMN document_id uuid UNIQUE REFERENCES confirmation_documents(id);
ALTER TABLE orders ADD CONSTRAINT orders_source_check
  CHECK ((deposit_id IS NOT NULL AND payer_sub IS NOT NULL) OR document_id IS NOT NULL);

-- The organiser's legal details printed on invoices: {name, address, vatNumber, vatRate (percent)}.
ALTER TABLE organisations ADD COLUMN legal jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE TABLE invoices (
  organisation_id uuid NOT NULL REFERENCES organisations(id),
  number integer NOT NULL CHECK (number > 0),
  order_id bigint NOT NULL UNIQUE REFERENCES orders(id),
  issued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, number)
);
