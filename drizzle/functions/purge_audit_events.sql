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
