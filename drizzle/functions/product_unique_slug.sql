CREATE OR REPLACE FUNCTION "product_unique_slug"(p_name text, p_id uuid) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  base text := "product_slug_base"(p_name);
  candidate text := base;
  n integer := 1;
BEGIN
  -- Two writers naming products alike take turns (until commit), so neither picks the other's slug.
  PERFORM pg_advisory_xact_lock(hashtext('capital-grown:product-slug:' || base));
  LOOP
    EXIT WHEN NOT EXISTS (SELECT 1 FROM "products" p WHERE p."slug" = candidate AND p."id" <> p_id)
      AND NOT EXISTS (SELECT 1 FROM "product_slugs" s WHERE s."slug" = candidate AND s."product_id" <> p_id);
    n := n + 1;
    candidate := base || '-' || n;
  END LOOP;
  RETURN candidate;
END
$$;
