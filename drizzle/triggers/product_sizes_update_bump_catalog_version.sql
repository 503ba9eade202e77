CREATE OR REPLACE TRIGGER "product_sizes_update_bump_catalog_version"
  AFTER UPDATE ON "product_sizes"
  FOR EACH ROW
  WHEN (
    OLD."size" IS DISTINCT FROM NEW."size"
    OR OLD."price_cents" IS DISTINCT FROM NEW."price_cents"
    OR OLD."sale_price_cents" IS DISTINCT FROM NEW."sale_price_cents"
    OR OLD."position" IS DISTINCT FROM NEW."position"
    OR OLD."product_id" IS DISTINCT FROM NEW."product_id"
    OR least(OLD."inventory_count", 11) IS DISTINCT FROM least(NEW."inventory_count", 11)
  )
  EXECUTE FUNCTION "bump_catalog_version"();
