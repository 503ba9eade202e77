CREATE OR REPLACE TRIGGER "products_bump_catalog_version"
  AFTER INSERT OR UPDATE OR DELETE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
