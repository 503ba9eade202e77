CREATE TABLE "product_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_sizes" ADD COLUMN "low_stock_threshold" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "slug" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_slugs" ADD CONSTRAINT "product_slugs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_slugs_product_id_idx" ON "product_slugs" USING btree ("product_id");--> statement-breakpoint
ALTER TABLE "product_sizes" ADD CONSTRAINT "product_sizes_low_stock_threshold_non_negative" CHECK ("product_sizes"."low_stock_threshold" >= 0);--> statement-breakpoint
-- Decision 028: a product's slug is made from its name, here, so every writer (the admin form, the
-- demo seed, the test factories, an import, a restore of an older backup) gets the same one.
-- 'Blue Dream' → 'blue-dream'; accents folded, anything else between words becomes one '-'.
CREATE FUNCTION "product_slug_base"(product_name text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  base text;
BEGIN
  base := lower(translate(coalesce(product_name, ''),
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy'));
  base := replace(base, '&', ' and ');
  base := trim(BOTH '-' FROM regexp_replace(base, '[^a-z0-9]+', '-', 'g'));
  base := trim(BOTH '-' FROM left(base, 80));
  IF base = '' THEN
    base := 'product';
  END IF;
  RETURN base;
END
$$;
--> statement-breakpoint
-- The first free slug for product `p_id` named `p_name`: the base, else base-2, base-3 …; a slug is
-- taken when another product has it now or had it before (its old URL keeps redirecting there).
CREATE FUNCTION "product_unique_slug"(p_name text, p_id uuid) RETURNS text LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
-- Inserted without a slug, or renamed: the product gets the first free slug of its name. A slug it
-- leaves goes to product_slugs (its old URL answers 301); a slug it takes back leaves that table.
CREATE FUNCTION "products_assign_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE TRIGGER "products_assign_slug"
  BEFORE INSERT OR UPDATE OF "name", "slug" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_assign_slug"();
--> statement-breakpoint
-- Products that exist already get theirs, oldest first (the first 'Blue Dream' keeps 'blue-dream').
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT "id", "name" FROM "products" ORDER BY "created_at", "id" LOOP
    UPDATE "products" SET "slug" = "product_unique_slug"(r."name", r."id") WHERE "id" = r."id";
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE UNIQUE INDEX "products_slug_idx" ON "products" USING btree ("slug");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_slug_format" CHECK ("products"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
--> statement-breakpoint
-- The demo catalogue is seeded once in a database's life (decision 028): a shop that has products
-- now has had its chance, whatever it deletes later.
INSERT INTO "store_settings" ("key", "value")
  SELECT 'demo-catalogue-seeded', jsonb_build_object('at', now(), 'by', 'migration 0008')
  WHERE EXISTS (SELECT 1 FROM "products")
  ON CONFLICT ("key") DO NOTHING;
