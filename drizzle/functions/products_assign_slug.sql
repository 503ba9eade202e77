CREATE OR REPLACE FUNCTION "products_assign_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."slug" IS NULL OR NEW."slug" = '' THEN
      NEW."slug" := "product_unique_slug"(NEW."name", NEW."id");
    END IF;
  ELSIF NEW."slug" IS DISTINCT FROM OLD."slug" AND NEW."slug" IS NOT NULL AND NEW."slug" <> '' THEN
    NULL; -- a slug given explicitly
  ELSIF NEW."name" IS DISTINCT FROM OLD."name" OR NEW."slug" IS NULL OR NEW."slug" = '' THEN
    NEW."slug" := "product_unique_slug"(NEW."name", NEW."id");
  ELSE
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD."slug" <> '' AND OLD."slug" <> NEW."slug" THEN
    INSERT INTO "product_slugs" ("slug", "product_id") VALUES (OLD."slug", NEW."id")
      ON CONFLICT ("slug") DO NOTHING;
  END IF;
  DELETE FROM "product_slugs" WHERE "slug" = NEW."slug";
  RETURN NEW;
END
$$;
