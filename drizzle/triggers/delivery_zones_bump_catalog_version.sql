CREATE OR REPLACE TRIGGER "delivery_zones_bump_catalog_version"
  AFTER INSERT OR UPDATE OR DELETE ON "delivery_zones"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
