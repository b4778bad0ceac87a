-- One audit trail (issue 30): the participants' changes (0008), the race-day desk's corrections
-- (0010, also the desk's undo store), the confirmation history (0012) and the payments audit (0013)
-- become rows of one table. `subject` says what an entry is about, `subject_id` which one:
--   participant   the participant's id          scope: its race
--   passing       the desk entry's passing/bib  scope: the context (db) the desk lists
--   confirmation  the document's id
--   payment       the order's id, else the bank line's, else ''
-- `ref` is an entry's id given by its writer (the desk's undo handle, a uuid); `undo_of` and
-- `undone_by` link desk entries by that ref. `detail` holds the rest (changes, before/after, reason,
-- amount, note...). organisation_id / event_id are set where the writer knows them.
CREATE TABLE audit_trail (
  id bigserial PRIMARY KEY,
  ref uuid UNIQUE,
  organisation_id uuid,
  event_id text,
  subject text NOT NULL CHECK (subject IN ('participant', 'passing', 'payment', 'confirmation')),
  subject_id text NOT NULL DEFAULT '',
  scope text,
  action text NOT NULL,
  actor_sub text,
  actor_email text NOT NULL DEFAULT '',
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  undo_of uuid,
  undone_by uuid,
  at timestamptz NOT NULL DEFAULT now()
);
-- A participant's or a document's history (newest first).
CREATE INDEX audit_trail_subject_idx ON audit_trail (subject, subject_id, id);
-- The desk's log of a context (newest first).
CREATE INDEX audit_trail_scope_idx ON audit_trail (subject, scope, at) WHERE scope IS NOT NULL;
-- An organisation's payments audit, an event's trail.
CREATE INDEX audit_trail_organisation_idx ON audit_trail (organisation_id, subject, id);
CREATE INDEX audit_trail_event_idx ON audit_trail (event_id, id) WHERE event_id IS NOT NULL;

INSERT INTO audit_trail (organisation_id, event_id, subject, subject_id, scope, action, actor_sub, actor_email, detail, at)
SELECT e.organisation_id, e.id, 'participant', a.participant_id::text, a.race_id, a.action, a.actor_sub, a.actor_email,
       jsonb_build_object('changes', a.changes), a.at
  FROM participant_audit a LEFT JOIN races r ON r.id = a.race_id LEFT JOIN contexts c ON c.db = r.db
  LEFT JOIN events e ON e.id = c.event_id
 ORDER BY a.id;

INSERT INTO audit_trail (ref, organisation_id, event_id, subject, subject_id, scope, action, actor_sub, actor_email,
                         detail, undo_of, undone_by, at)
SELECT a.id, e.organisation_id, e.id, 'passing', coalesce(a.passing_id, a.bib, ''), a.db, a.action, a.actor,
       coalesce(u.email, ''),
       jsonb_build_object('passingId', a.passing_id, 'bib', a.bib, 'raceId', a.race_id, 'before', a.before,
                          'after', a.after, 'reason', a.reason),
       a.undo_of, a.undone_by, a.at
  FROM passing_audit a LEFT JOIN contexts c ON c.db = a.db LEFT JOIN events e ON e.id = c.event_id
  LEFT JOIN users u ON u.sub::text = a.actor
 ORDER BY a.at, a.id;

INSERT INTO audit_trail (organisation_id, event_id, subject, subject_id, action, actor_sub, actor_email, detail, at)
SELECT e.organisation_id, e.id, 'confirmation', h.document_id::text, h.action, h.actor_sub::text, h.actor_email,
       h.detail, h.at
  FROM confirmation_history h JOIN confirmation_documents d ON d.id = h.document_id
  LEFT JOIN events e ON e.id = d.event_id
 ORDER BY h.id;

INSERT INTO audit_trail (organisation_id, event_id, subject, subject_id, action, actor_sub, actor_email, detail, at)
SELECT a.organisation_id, o.event_id, 'payment', coalesce(a.order_id::text, a.bank_line_id::text, ''), a.action,
       a.actor_sub::text, coalesce(u.email, ''),
       jsonb_build_object('orderId', a.order_id::text, 'bankLineId', a.bank_line_id::text,
                          'amountCents', a.amount_cents, 'note', a.note),
       a.created_at
  FROM payment_audit a LEFT JOIN orders o ON o.id = a.order_id LEFT JOIN users u ON u.sub = a.actor_sub
 ORDER BY a.id;

DROP TABLE participant_audit;
DROP TABLE passing_audit;
DROP TABLE confirmation_history;
DROP TABLE payment_audit;
