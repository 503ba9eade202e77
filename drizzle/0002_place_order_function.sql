-- Placing an order in one statement, so one round trip (decision 7): the caller has read the prices
-- and rendered both e-mails; this takes the stock in size-id order, checks that the prices and labels
-- under the row locks are the ones it was given, and writes the order, its items, both queued
-- e-mails and the running totals. Any RAISE rolls the whole statement back.
--   SQLSTATE CG409: a size does not have the stock (DETAIL is the size id).
--   SQLSTATE CG412: a size's price or label changed since it was read (read again and retry).
-- A second submit with the same idempotency key writes nothing and returns the first order.
CREATE FUNCTION "place_order"("p_order" jsonb, "p_lines" jsonb, "p_mails" jsonb)
RETURNS TABLE ("order_id" uuid, "order_token" text, "order_total_cents" integer, "order_replayed" boolean)
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

  RETURN QUERY SELECT placed, "p_order"->>'public_token', ("p_order"->>'total_amount_cents')::integer, false;
END
$$;
