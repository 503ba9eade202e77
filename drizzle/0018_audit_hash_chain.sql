CREATE TABLE "audit_chain" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"head_id" bigint DEFAULT 0 NOT NULL,
	"head_hash" text NOT NULL,
	"verified_id" bigint,
	"verified_hash" text,
	"verified_at" timestamp with time zone,
	CONSTRAINT "audit_chain_one_row" CHECK ("audit_chain"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "secret" text;--> statement-breakpoint
-- The audit log's hash chain (docs/decisions/036-audit-hash-chain.md). Each event's `hash` is the
-- SHA-256 (hex) of the UTF-8 text
--   'capital-grown-audit-v1' LF prev_hash LF f(id) LF f(created_at) LF f(actor_id) LF f(actor_email)
--   LF f(actor_role) LF f(action) LF f(target_type) LF f(target_id) LF f(details) LF f(ip_address)
--   LF f(request_id)
-- where f(NULL) = '~' and f(v) = <v's length in UTF-8 bytes> ':' v; created_at is written as whole
-- microseconds since 1970-01-01 UTC, details as jsonb's own text. The first event's prev_hash is 64
-- zeros; every later one's is the hash of the event before it (by id). app/features/staff/
-- audit-chain.server.ts computes the same text to verify the chain.
CREATE FUNCTION audit_chain_field(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(value)::text || ':' || value END
$$;--> statement-breakpoint
CREATE FUNCTION audit_event_hash(
  prev_hash text, event_id bigint, created_at timestamptz, actor_id uuid, actor_email text,
  actor_role text, action text, target_type text, target_id text, details jsonb, ip_address text,
  request_id text
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    'capital-grown-audit-v1' || E'\n' || prev_hash
    || E'\n' || audit_chain_field(event_id::text)
    || E'\n' || audit_chain_field(((extract(epoch FROM created_at) * 1000000)::bigint)::text)
    || E'\n' || audit_chain_field(actor_id::text)
    || E'\n' || audit_chain_field(actor_email)
    || E'\n' || audit_chain_field(actor_role)
    || E'\n' || audit_chain_field(action)
    || E'\n' || audit_chain_field(target_type)
    || E'\n' || audit_chain_field(target_id)
    || E'\n' || audit_chain_field(details::text)
    || E'\n' || audit_chain_field(ip_address)
    || E'\n' || audit_chain_field(request_id),
    'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Existing events are chained in id order. Their rows are updated once, here, past the append-only
-- trigger (a migration runs as the table's owner).
ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change;--> statement-breakpoint
DO $$
DECLARE
  event record;
  previous text := repeat('0', 64);
  last_id bigint := 0;
BEGIN
  FOR event IN SELECT * FROM audit_events ORDER BY id LOOP
    UPDATE audit_events SET prev_hash = previous, hash = audit_event_hash(previous, event.id,
        event.created_at, event.actor_id, event.actor_email, event.actor_role, event.action,
        event.target_type, event.target_id, event.details, event.ip_address, event.request_id)
      WHERE id = event.id
      RETURNING hash INTO previous;
    last_id := event.id;
  END LOOP;
  INSERT INTO audit_chain (id, head_id, head_hash) VALUES (1, last_id, previous);
END
$$;--> statement-breakpoint
ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change;--> statement-breakpoint
-- Every INSERT first locks the chain's head row (a statement trigger runs before any row's id is
-- drawn from the sequence), so ids are drawn, and events chained, one transaction at a time: two
-- transactions inserting at once never fork the chain, and ids follow the chain's order. The lock
-- is held until commit. A REPEATABLE READ transaction that finds the head moved since its snapshot
-- fails with a serialization error instead of forking. Within a statement the head travels from
-- row to row in a transaction-local setting and is written back once, after the statement (one
-- UPDATE per statement, however many rows it inserts).
CREATE FUNCTION audit_chain_lock() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head audit_chain;
BEGIN
  SELECT * INTO head FROM audit_chain WHERE id = 1 FOR UPDATE;
  PERFORM set_config('capital_grown.audit_chain_head', head.head_id::text || ':' || head.head_hash, true);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head text := current_setting('capital_grown.audit_chain_head', true);
  head_id bigint;
BEGIN
  IF coalesce(head, '') = '' THEN
    RAISE EXCEPTION 'audit_events: the chain head is not locked';
  END IF;
  head_id := split_part(head, ':', 1)::bigint;
  -- A restore brings events back as they were stored, hashes included (app/db/backup.server.ts).
  IF NEW.hash IS NOT NULL AND current_setting('capital_grown.audit_restore', true) = 'on' THEN
    IF NEW.id > head_id THEN
      PERFORM set_config('capital_grown.audit_chain_head', NEW.id::text || ':' || NEW.hash, true);
    END IF;
    RETURN NEW;
  END IF;
  NEW.prev_hash := split_part(head, ':', 2);
  NEW.hash := audit_event_hash(NEW.prev_hash, NEW.id, NEW.created_at, NEW.actor_id, NEW.actor_email,
    NEW.actor_role, NEW.action, NEW.target_type, NEW.target_id, NEW.details, NEW.ip_address,
    NEW.request_id);
  PERFORM set_config('capital_grown.audit_chain_head', NEW.id::text || ':' || NEW.hash, true);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE FUNCTION audit_chain_advance() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head text := current_setting('capital_grown.audit_chain_head', true);
BEGIN
  IF coalesce(head, '') <> '' THEN
    UPDATE audit_chain SET head_id = split_part(head, ':', 1)::bigint, head_hash = split_part(head, ':', 2)
      WHERE id = 1 AND head_id <> split_part(head, ':', 1)::bigint;
    PERFORM set_config('capital_grown.audit_chain_head', '', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_chain_lock BEFORE INSERT ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_lock();--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_chain();--> statement-breakpoint
CREATE TRIGGER audit_events_chain_advance AFTER INSERT ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_advance();--> statement-breakpoint
-- The retention purge deletes a prefix of the chain (the events past the retention up to the first
-- one still within it) and then records an anchor event with the last deleted event's id and hash, so a
-- verification starts from the first event left and still knows what it must follow. It holds the
-- chain's lock throughout, so two instances purging at once write one anchor.
CREATE OR REPLACE FUNCTION purge_audit_events(retention_days integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  removed bigint;
  up_to bigint;
  last_hash text;
BEGIN
  IF retention_days IS NULL OR retention_days < 30 THEN
    RAISE EXCEPTION 'audit retention must be at least 30 days';
  END IF;
  PERFORM 1 FROM audit_chain WHERE id = 1 FOR UPDATE;
  SELECT max(id) INTO up_to FROM audit_events
    WHERE created_at < now() - make_interval(days => retention_days);
  -- Only a prefix: an event still within the retention ends it (an older one after it waits).
  SELECT coalesce(min(id) - 1, up_to) INTO up_to FROM audit_events
    WHERE id <= up_to AND created_at >= now() - make_interval(days => retention_days);
  IF up_to IS NULL OR NOT EXISTS (SELECT 1 FROM audit_events WHERE id <= up_to) THEN
    RETURN 0;
  END IF;
  SELECT hash INTO last_hash FROM audit_events WHERE id = up_to;
  PERFORM set_config('capital_grown.audit_purge', 'on', true);
  DELETE FROM audit_events WHERE id <= up_to;
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('capital_grown.audit_purge', 'off', true);
  INSERT INTO audit_events (action, target_type, target_id, details)
    VALUES ('audit.purged', 'audit_event', up_to::text,
      jsonb_build_object('upToId', up_to, 'lastHash', last_hash, 'removed', removed,
        'retentionDays', retention_days));
  RETURN removed;
END
$$;
