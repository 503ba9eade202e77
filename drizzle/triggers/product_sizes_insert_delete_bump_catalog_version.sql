CREATE OR REPLACE TRIGGER "product_sizes_insert_delete_bump_catalog_version"
  AFTER INSERT OR DELETE ON "product_sizes"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
