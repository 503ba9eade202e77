CREATE OR REPLACE FUNCTION audit_event_hash(
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
$$;
