CREATE OR REPLACE FUNCTION audit_chain_advance() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;
