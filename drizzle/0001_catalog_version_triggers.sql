-- Catalogue pages are cached; every change a shopper could see bumps catalog_state.version
-- (and notifies listeners) in the same transaction, so no instance serves a stale page.
INSERT INTO "catalog_state" ("id", "version") VALUES (1, 1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "order_status_counts" ("status", "orders_count")
VALUES ('pending', 0), ('confirmed', 0), ('delivered', 0), ('cancelled', 0)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "bump_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_version bigint;
BEGIN
  UPDATE "catalog_state" SET "version" = "version" + 1, "changed_at" = now()
    WHERE "id" = 1 RETURNING "version" INTO new_version;
  PERFORM pg_notify('catalog_changed', new_version::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "products_bump_catalog_version"
  AFTER INSERT OR UPDATE OR DELETE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_sizes_insert_delete_bump_catalog_version"
  AFTER INSERT OR DELETE ON "product_sizes"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
-- A stock change matters to a page only when it crosses sold-out.
CREATE TRIGGER "product_sizes_update_bump_catalog_version"
  AFTER UPDATE ON "product_sizes"
  FOR EACH ROW
  WHEN (
    OLD."size" IS DISTINCT FROM NEW."size"
    OR OLD."price_cents" IS DISTINCT FROM NEW."price_cents"
    OR OLD."sale_price_cents" IS DISTINCT FROM NEW."sale_price_cents"
    OR OLD."position" IS DISTINCT FROM NEW."position"
    OR OLD."product_id" IS DISTINCT FROM NEW."product_id"
    OR (OLD."inventory_count" > 0) IS DISTINCT FROM (NEW."inventory_count" > 0)
  )
  EXECUTE FUNCTION "bump_catalog_version"();
