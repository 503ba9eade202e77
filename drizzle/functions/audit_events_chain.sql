CREATE OR REPLACE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;
