CREATE TABLE "encryption_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"check_value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
-- Unlogged: a rate count lost in a crash costs nothing, and each count skips a WAL flush.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "store_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "total_price_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "id_photos" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "id_photos" ADD COLUMN "nonce" "bytea";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "product_sizes" ADD COLUMN "flower_equivalent_mg" integer;--> statement-breakpoint
-- Before photos were single-use, two orders could name one photo: the first keeps it.
UPDATE "orders" AS o SET "id_photo_id" = NULL
WHERE o."id_photo_id" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "orders" AS earlier
  WHERE earlier."id_photo_id" = o."id_photo_id"
    AND (earlier."created_at", earlier."id") < (o."created_at", o."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "orders_id_photo_id_idx" ON "orders" USING btree ("id_photo_id") WHERE "orders"."id_photo_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_open_email_idx" ON "orders" USING btree (lower("user_email")) WHERE "orders"."status" IN ('pending', 'confirmed');--> statement-breakpoint
CREATE INDEX "orders_open_phone_idx" ON "orders" USING btree (regexp_replace("phone", '\D', '', 'g')) WHERE "orders"."status" IN ('pending', 'confirmed');--> statement-breakpoint
ALTER TABLE "product_sizes" ADD CONSTRAINT "product_sizes_flower_equivalent_non_negative" CHECK ("product_sizes"."flower_equivalent_mg" IS NULL OR "product_sizes"."flower_equivalent_mg" >= 0);
--> statement-breakpoint
-- place_order (drizzle/0002) again, with bigint totals (an order above $21.4 million no longer
-- overflows) and, when p_order carries max_open_orders, the open-orders limit per e-mail address
-- and phone number (decision 29):
--   SQLSTATE CG429: this e-mail address (DETAIL 'email') or phone number (DETAIL 'phone') already
--   has that many open orders.
-- A second order naming a photo another order holds fails on orders_id_photo_id_idx (23505).
DROP FUNCTION "place_order"(jsonb, jsonb, jsonb);--> statement-breakpoint
CREATE FUNCTION "place_order"("p_order" jsonb, "p_lines" jsonb, "p_mails" jsonb)
RETURNS TABLE ("order_id" uuid, "order_token" text, "order_total_cents" bigint, "order_replayed" boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  placed uuid;
  line jsonb;
  locked record;
BEGIN
  -- First, so a concurrent submit of the same key waits here holding no stock lock.
  INSERT INTO "orders" ("id", "public_token", "idempotency_key", "status", "status_changed_at",
    "user_email", "customer_name", "phone", "street", "city", "state", "zip_code", "delivery_address",
    "delivery_date", "delivery_time", "total_amount_cents", "notes", "id_photo_id", "product_id",
    "quantity", "created_at", "updated_at")
  SELECT o."id", o."public_token", o."idempotency_key", 'pending', o."created_at",
    o."user_email", o."customer_name", o."phone", o."street", o."city", o."state", o."zip_code",
    o."delivery_address", o."delivery_date", o."delivery_time", o."total_amount_cents", o."notes",
    o."id_photo_id", o."product_id", o."quantity", o."created_at", o."created_at"
  FROM jsonb_populate_record(NULL::"orders", "p_order") AS o
  ON CONFLICT ("idempotency_key") DO NOTHING
  RETURNING "orders"."id" INTO placed;

  IF placed IS NULL THEN
    RETURN QUERY SELECT o."id", o."public_token", o."total_amount_cents", true
      FROM "orders" AS o WHERE o."idempotency_key" = "p_order"->>'idempotency_key';
    RETURN;
  END IF;

  -- At most N open orders per e-mail address and per phone number (decision 29). The advisory
  -- locks (taken in a fixed order) make a concurrent order for the same person wait, so its count
  -- includes this one once committed.
  IF ("p_order"->>'max_open_orders') IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(k) FROM unnest(ARRAY[
      hashtextextended('open-orders-email:' || lower("p_order"->>'user_email'), 0),
      hashtextextended('open-orders-phone:' || regexp_replace("p_order"->>'phone', '\D', '', 'g'), 0)
    ]) AS k ORDER BY k;
    IF (SELECT count(*) FROM "orders" AS o
        WHERE lower(o."user_email") = lower("p_order"->>'user_email')
          AND o."status" IN ('pending', 'confirmed') AND o."id" <> placed)
        >= ("p_order"->>'max_open_orders')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG429', MESSAGE = 'too many open orders', DETAIL = 'email';
    END IF;
    IF (SELECT count(*) FROM "orders" AS o
        WHERE regexp_replace(o."phone", '\D', '', 'g') = regexp_replace("p_order"->>'phone', '\D', '', 'g')
          AND o."status" IN ('pending', 'confirmed') AND o."id" <> placed)
        >= ("p_order"->>'max_open_orders')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG429', MESSAGE = 'too many open orders', DETAIL = 'phone';
    END IF;
  END IF;

  FOR line IN
    SELECT l.value FROM jsonb_array_elements("p_lines") AS l
    ORDER BY (l.value->>'product_size_id')::uuid
  LOOP
    UPDATE "product_sizes" AS s
      SET "inventory_count" = s."inventory_count" - (line->>'quantity')::integer
      WHERE s."id" = (line->>'product_size_id')::uuid
        AND s."inventory_count" >= (line->>'quantity')::integer
      RETURNING s."size", s."price_cents", s."sale_price_cents" INTO locked;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'CG409', MESSAGE = 'out of stock', DETAIL = line->>'product_size_id';
    END IF;
    IF locked."size" IS DISTINCT FROM line->>'size_label'
      OR locked."price_cents" IS DISTINCT FROM (line->>'price_cents')::integer
      OR locked."sale_price_cents" IS DISTINCT FROM (line->>'sale_price_cents')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG412', MESSAGE = 'price changed', DETAIL = line->>'product_size_id';
    END IF;
  END LOOP;

  INSERT INTO "order_items" ("order_id", "product_id", "product_size_id", "product_name", "size_label",
    "image_url", "quantity", "unit_price_cents", "total_price_cents")
  SELECT placed, i."product_id", i."product_size_id", i."product_name", i."size_label", i."image_url",
    i."quantity", i."unit_price_cents", i."total_price_cents"
  FROM jsonb_populate_recordset(NULL::"order_items", "p_lines") AS i;

  INSERT INTO "email_outbox" ("order_id", "kind", "to_address", "subject", "text_body", "html_body",
    "next_attempt_at", "created_at")
  SELECT placed, m."kind", m."to_address", m."subject", m."text_body", m."html_body", m."created_at",
    m."created_at"
  FROM jsonb_populate_recordset(NULL::"email_outbox", "p_mails") AS m;

  -- Last: every order touches these same two rows, so they are locked only until the commit.
  INSERT INTO "order_daily_stats" ("day", "orders_count", "revenue_cents")
  VALUES (("p_order"->>'store_day')::date, 1, ("p_order"->>'total_amount_cents')::bigint)
  ON CONFLICT ("day") DO UPDATE SET
    "orders_count" = "order_daily_stats"."orders_count" + 1,
    "revenue_cents" = "order_daily_stats"."revenue_cents" + EXCLUDED."revenue_cents";
  INSERT INTO "order_status_counts" ("status", "orders_count") VALUES ('pending', 1)
  ON CONFLICT ("status") DO UPDATE SET "orders_count" = "order_status_counts"."orders_count" + 1;

  RETURN QUERY SELECT placed, "p_order"->>'public_token', ("p_order"->>'total_amount_cents')::bigint, false;
END
$$;
