CREATE OR REPLACE FUNCTION audit_chain_field(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '~' ELSE octet_length(value)::text || ':' || value END
$$;
