CREATE OR REPLACE FUNCTION "place_order"("p_order" jsonb, "p_lines" jsonb, "p_mails" jsonb)
RETURNS TABLE ("order_id" uuid, "order_token" text, "order_total_cents" bigint, "order_replayed" boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  placed uuid;
  line jsonb;
  locked record;
  budget record;
  slot record;
  booked_now integer;
BEGIN
  -- First, so a concurrent submit of the same key waits here holding no stock lock.
  INSERT INTO "orders" ("id", "public_token", "idempotency_key", "status", "status_changed_at",
    "user_email", "customer_name", "phone", "street", "city", "state", "zip_code", "delivery_address",
    "delivery_date", "delivery_time", "total_amount_cents", "notes", "id_photo_id", "product_id",
    "quantity", "pay_with_cents", "sms_opt_in", "customer_id", "created_at", "updated_at")
  SELECT o."id", o."public_token", o."idempotency_key", 'pending', o."created_at",
    o."user_email", o."customer_name", o."phone", o."street", o."city", o."state", o."zip_code",
    o."delivery_address", o."delivery_date", o."delivery_time", o."total_amount_cents", o."notes",
    o."id_photo_id", o."product_id", o."quantity", o."pay_with_cents", coalesce(o."sms_opt_in", false),
    o."customer_id", o."created_at", o."created_at"
  FROM jsonb_populate_record(NULL::"orders", "p_order") AS o
  ON CONFLICT ("idempotency_key") DO NOTHING
  RETURNING "orders"."id" INTO placed;

  IF placed IS NULL THEN
    RETURN QUERY SELECT o."id", o."public_token", o."total_amount_cents", true
      FROM "orders" AS o WHERE o."idempotency_key" = "p_order"->>'idempotency_key';
    RETURN;
  END IF;

  -- The hourly order budget of the client address, when p_order names it: counted
  -- in rate_limits (the table rate-limiter-flexible keeps the other budgets in, same rows and
  -- rules) inside this transaction, so a refused or failed order gives its point back by rolling
  -- back, and no separate round trip takes or refunds it. The row stays locked until the commit:
  -- parallel orders from one address wait for each other, others do not.
  IF ("p_order"->>'budget_key') IS NOT NULL THEN
    INSERT INTO "rate_limits" AS r ("key", "points", "expire")
    VALUES ("p_order"->>'budget_key', 1,
      ("p_order"->>'budget_now_ms')::bigint + ("p_order"->>'budget_window_ms')::bigint)
    ON CONFLICT ("key") DO UPDATE SET
      "points" = CASE WHEN r."expire" <= ("p_order"->>'budget_now_ms')::bigint THEN 1
                      ELSE r."points" + 1 END,
      "expire" = CASE WHEN r."expire" <= ("p_order"->>'budget_now_ms')::bigint THEN EXCLUDED."expire"
                      ELSE r."expire" END
    RETURNING r."points", r."expire" INTO budget;
    IF budget."points" > ("p_order"->>'budget_points')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG429', MESSAGE = 'order budget used up', DETAIL = 'budget',
        HINT = budget."expire"::text;
    END IF;
  END IF;

  -- At most N open orders per e-mail address and per phone number. The advisory
  -- locks (taken in a fixed order) make a concurrent order for the same person wait, so its count
  -- includes this one once committed.
  IF ("p_order"->>'max_open_orders') IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(k) FROM unnest(ARRAY[
      hashtextextended('open-orders-email:' || lower("p_order"->>'user_email'), 0),
      hashtextextended('open-orders-phone:' || regexp_replace("p_order"->>'phone', '\D', '', 'g'), 0)
    ]) AS k ORDER BY k;
    IF (SELECT count(*) FROM "orders" AS o
        WHERE lower(o."user_email") = lower("p_order"->>'user_email')
          AND o."status" IN ('pending', 'confirmed', 'out_for_delivery') AND o."id" <> placed)
        >= ("p_order"->>'max_open_orders')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG428', MESSAGE = 'too many open orders', DETAIL = 'email';
    END IF;
    IF (SELECT count(*) FROM "orders" AS o
        WHERE regexp_replace(o."phone", '\D', '', 'g') = regexp_replace("p_order"->>'phone', '\D', '', 'g')
          AND o."status" IN ('pending', 'confirmed', 'out_for_delivery') AND o."id" <> placed)
        >= ("p_order"->>'max_open_orders')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG428', MESSAGE = 'too many open orders', DETAIL = 'phone';
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
      RAISE EXCEPTION USING ERRCODE = 'CG409', MESSAGE = 'out of stock', DETAIL = line->>'product_size_id',
        HINT = coalesce((SELECT s."inventory_count" FROM "product_sizes" AS s
          WHERE s."id" = (line->>'product_size_id')::uuid), 0)::text;
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

  -- The stock ledger (decision record 026): one movement per line, in this same statement.
  INSERT INTO "stock_movements" ("size_id", "delta", "reason", "order_id", "created_at")
  SELECT (l.value->>'product_size_id')::uuid, -(l.value->>'quantity')::integer, 'order', placed,
    ("p_order"->>'created_at')::timestamptz
  FROM jsonb_array_elements("p_lines") AS l;

  INSERT INTO "email_outbox" ("order_id", "kind", "channel", "to_address", "subject", "text_body",
    "html_body", "next_attempt_at", "created_at")
  SELECT placed, m."kind", coalesce(m."channel", 'email'), m."to_address", m."subject", m."text_body",
    m."html_body", m."created_at", m."created_at"
  FROM jsonb_populate_recordset(NULL::"email_outbox", "p_mails") AS m;

  -- The order's place in its delivery slot, late so the slot's row is locked only
  -- until the commit: the closures first, then one counter row per date and slot, taken and
  -- checked in one statement. A refusal rolls the increment back with the order.
  IF ("p_order"->>'slot_capacity') IS NOT NULL THEN
    SELECT * INTO slot FROM "delivery_slot_closure"(("p_order"->>'delivery_date')::date, "p_order"->>'delivery_time');
    IF slot."refusal" IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'CG410', MESSAGE = 'delivery slot unavailable',
        DETAIL = slot."refusal", HINT = coalesce(slot."reason", '');
    END IF;
  END IF;
  INSERT INTO "delivery_slot_bookings" AS b ("delivery_date", "delivery_time", "booked")
  VALUES (("p_order"->>'delivery_date')::date, "p_order"->>'delivery_time', 1)
  ON CONFLICT ("delivery_date", "delivery_time") DO UPDATE SET "booked" = b."booked" + 1
  RETURNING b."booked" INTO booked_now;
  IF booked_now > ("p_order"->>'slot_capacity')::integer THEN
    RAISE EXCEPTION USING ERRCODE = 'CG410', MESSAGE = 'delivery slot unavailable', DETAIL = 'full', HINT = '';
  END IF;

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
