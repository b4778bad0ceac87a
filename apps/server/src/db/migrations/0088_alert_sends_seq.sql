-- Issue 40, alerts once per passing with several nodes: the seq of the read a message was sent
-- for. Each read is alerted by the node that stored it, behind its acknowledgement; a node late
-- with an older read (its card without the newer time another node sent) must not send the
-- older time again as a "correction": a claim replaces the sent time only from a read at least
-- as new as the one it was sent for.
ALTER TABLE alert_sends ADD COLUMN seq bigint NOT NULL DEFAULT 0;
