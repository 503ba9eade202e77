CREATE OR REPLACE FUNCTION audit_chain_lock() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head audit_chain;
BEGIN
  SELECT * INTO head FROM audit_chain WHERE id = 1 FOR UPDATE;
  PERFORM set_config('capital_grown.audit_chain_head', head.head_id::text || ':' || head.head_hash, true);
  RETURN NULL;
END
$$;
