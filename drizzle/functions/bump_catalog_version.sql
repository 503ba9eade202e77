CREATE OR REPLACE FUNCTION "bump_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_version bigint;
BEGIN
  IF current_setting('catalog.bumped', true) = 'yes' THEN
    RETURN NULL;
  END IF;
  UPDATE "catalog_state" SET "version" = "version" + 1, "changed_at" = now()
    WHERE "id" = 1 RETURNING "version" INTO new_version;
  PERFORM pg_notify('catalog_changed', new_version::text);
  PERFORM set_config('catalog.bumped', 'yes', true);
  RETURN NULL;
END
$$;
