CREATE OR REPLACE TRIGGER "products_assign_slug"
  BEFORE INSERT OR UPDATE OF "name", "slug" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_assign_slug"();
