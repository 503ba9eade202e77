-- Slot capacity as a counter (decision 22, decision record 029): the orders holding a place in each
-- date and slot are kept in one row per slot, written by place_order and change_order_status,
-- instead of being counted at every order, checkout page and reopen. Counting grew with the slot:
-- an order into a slot that already held 2,500 cost 1.5 ms of database CPU against 0.66 ms with
-- the counter (issue 11's orders/s).
CREATE TABLE "delivery_slot_bookings" (
  "delivery_date" date NOT NULL,
  "delivery_time" text NOT NULL,
  "booked" integer NOT NULL DEFAULT 0,
  PRIMARY KEY ("delivery_date", "delivery_time"),
  CONSTRAINT "delivery_slot_bookings_booked_non_negative" CHECK ("booked" >= 0)
);--> statement-breakpoint
INSERT INTO "delivery_slot_bookings" ("delivery_date", "delivery_time", "booked")
SELECT "delivery_date", "delivery_time", count(*) FROM "orders" WHERE "status" <> 'cancelled'
GROUP BY "delivery_date", "delivery_time";--> statement-breakpoint
-- The closure of a date or one of its slots, if any: ('closed', reason) or (NULL, NULL).
CREATE FUNCTION "delivery_slot_closure"("p_date" date, "p_slot" text)
RETURNS TABLE ("refusal" text, "reason" text)
LANGUAGE sql STABLE AS $$
  SELECT 'closed'::text, c."reason" FROM "delivery_closures" AS c
  WHERE c."date" = "p_date" AND (c."slot" IS NULL OR c."slot" = "p_slot")
  ORDER BY c."slot" NULLS FIRST LIMIT 1
$$;--> statement-breakpoint
-- Reopening a cancelled order asks this first: closed, full, or (NULL, NULL). The slot's row is
-- locked until the reopen commits, so two reopens cannot both take the last place.
CREATE OR REPLACE FUNCTION "delivery_slot_refusal"("p_date" date, "p_slot" text, "p_capacity" integer, "p_order" uuid)
RETURNS TABLE ("refusal" text, "reason" text)
LANGUAGE plpgsql AS $$
DECLARE
  closure record;
  booked_now integer;
BEGIN
  SELECT * INTO closure FROM "delivery_slot_closure"("p_date", "p_slot");
  IF closure."refusal" IS NOT NULL THEN
    RETURN QUERY SELECT closure."refusal", closure."reason";
    RETURN;
  END IF;
  INSERT INTO "delivery_slot_bookings" AS b ("delivery_date", "delivery_time", "booked")
  VALUES ("p_date", "p_slot", 0)
  ON CONFLICT ("delivery_date", "delivery_time") DO UPDATE SET "booked" = b."booked"
  RETURNING b."booked" INTO booked_now;
  IF booked_now >= "p_capacity" THEN
    RETURN QUERY SELECT 'full'::text, NULL::text;
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::text;
END
$$;--> statement-breakpoint
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
    "quantity", "pay_with_cents", "created_at", "updated_at")
  SELECT o."id", o."public_token", o."idempotency_key", 'pending', o."created_at",
    o."user_email", o."customer_name", o."phone", o."street", o."city", o."state", o."zip_code",
    o."delivery_address", o."delivery_date", o."delivery_time", o."total_amount_cents", o."notes",
    o."id_photo_id", o."product_id", o."quantity", o."pay_with_cents", o."created_at", o."created_at"
  FROM jsonb_populate_record(NULL::"orders", "p_order") AS o
  ON CONFLICT ("idempotency_key") DO NOTHING
  RETURNING "orders"."id" INTO placed;

  IF placed IS NULL THEN
    RETURN QUERY SELECT o."id", o."public_token", o."total_amount_cents", true
      FROM "orders" AS o WHERE o."idempotency_key" = "p_order"->>'idempotency_key';
    RETURN;
  END IF;

  -- The hourly order budget of the client address (decision 29), when p_order names it: counted
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
          AND o."status" IN ('pending', 'confirmed', 'out_for_delivery') AND o."id" <> placed)
        >= ("p_order"->>'max_open_orders')::integer THEN
      RAISE EXCEPTION USING ERRCODE = 'CG429', MESSAGE = 'too many open orders', DETAIL = 'email';
    END IF;
    IF (SELECT count(*) FROM "orders" AS o
        WHERE regexp_replace(o."phone", '\D', '', 'g') = regexp_replace("p_order"->>'phone', '\D', '', 'g')
          AND o."status" IN ('pending', 'confirmed', 'out_for_delivery') AND o."id" <> placed)
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

  INSERT INTO "email_outbox" ("order_id", "kind", "to_address", "subject", "text_body", "html_body",
    "next_attempt_at", "created_at")
  SELECT placed, m."kind", m."to_address", m."subject", m."text_body", m."html_body", m."created_at",
    m."created_at"
  FROM jsonb_populate_recordset(NULL::"email_outbox", "p_mails") AS m;

  -- The order's place in its delivery slot (decision 22), late so the slot's row is locked only
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "change_order_status"("p_order_id" uuid, "p_status" text, "p_now" timestamptz,
  "p_cancel_reason" text, "p_only_from" text[], "p_time_zone" text)
RETURNS text
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  found_order record;
  item record;
  revenue_delta bigint := 0;
BEGIN
  SELECT o."status", o."created_at", o."total_amount_cents", o."delivery_date", o."delivery_time" INTO found_order
    FROM "orders" AS o WHERE o."id" = "p_order_id" FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'not-found';
  END IF;
  IF found_order."status" = "p_status" THEN
    RETURN 'unchanged';
  END IF;
  IF "p_only_from" IS NOT NULL AND NOT (found_order."status" = ANY ("p_only_from")) THEN
    RETURN 'unchanged';
  END IF;

  IF "p_status" = 'cancelled' OR found_order."status" = 'cancelled' THEN
    FOR item IN
      SELECT i."product_size_id", i."quantity", i."product_name", i."size_label"
      FROM "order_items" AS i
      WHERE i."order_id" = "p_order_id" AND i."product_size_id" IS NOT NULL
      ORDER BY i."product_size_id"
    LOOP
      IF "p_status" = 'cancelled' THEN
        UPDATE "product_sizes" AS s SET "inventory_count" = s."inventory_count" + item."quantity"
          WHERE s."id" = item."product_size_id";
        IF FOUND THEN
          INSERT INTO "stock_movements" ("size_id", "delta", "reason", "actor_id", "order_id", "created_at")
          VALUES (item."product_size_id", item."quantity", 'cancel',
            nullif(current_setting('stock.actor', true), '')::uuid, "p_order_id", "p_now");
        END IF;
      ELSE
        UPDATE "product_sizes" AS s SET "inventory_count" = s."inventory_count" - item."quantity"
          WHERE s."id" = item."product_size_id" AND s."inventory_count" >= item."quantity";
        IF NOT FOUND THEN
          RAISE EXCEPTION USING ERRCODE = 'CG409', MESSAGE = 'out of stock',
            DETAIL = item."product_name" || ' (' || item."size_label" || ')';
        END IF;
        INSERT INTO "stock_movements" ("size_id", "delta", "reason", "actor_id", "order_id", "created_at")
        VALUES (item."product_size_id", -item."quantity", 'reopen',
          nullif(current_setting('stock.actor', true), '')::uuid, "p_order_id", "p_now");
      END IF;
    END LOOP;
    revenue_delta := CASE WHEN "p_status" = 'cancelled' THEN -found_order."total_amount_cents"
      ELSE found_order."total_amount_cents" END;
    -- A cancelled order frees its place in the slot; a reopened one takes it again (the caller
    -- checked the capacity with delivery_slot_refusal first).
    INSERT INTO "delivery_slot_bookings" AS b ("delivery_date", "delivery_time", "booked")
    VALUES (found_order."delivery_date", found_order."delivery_time",
      CASE WHEN "p_status" = 'cancelled' THEN 0 ELSE 1 END)
    ON CONFLICT ("delivery_date", "delivery_time") DO UPDATE SET
      "booked" = greatest(b."booked" + CASE WHEN "p_status" = 'cancelled' THEN -1 ELSE 1 END, 0);
  END IF;

  UPDATE "orders" AS o SET "status" = "p_status", "status_changed_at" = "p_now", "updated_at" = "p_now",
    "cancel_reason" = CASE WHEN "p_status" = 'cancelled' THEN "p_cancel_reason" ELSE NULL END
    WHERE o."id" = "p_order_id";

  INSERT INTO "order_status_events" ("order_id", "status", "from_status", "cancel_reason", "created_at")
    VALUES ("p_order_id", "p_status", found_order."status",
      CASE WHEN "p_status" = 'cancelled' THEN "p_cancel_reason" ELSE NULL END, "p_now");

  UPDATE "order_status_counts" AS c SET "orders_count" = greatest(c."orders_count" - 1, 0)
    WHERE c."status" = found_order."status";
  INSERT INTO "order_status_counts" ("status", "orders_count") VALUES ("p_status", 1)
  ON CONFLICT ("status") DO UPDATE SET "orders_count" = "order_status_counts"."orders_count" + 1;

  IF revenue_delta <> 0 THEN
    INSERT INTO "order_daily_stats" ("day", "orders_count", "revenue_cents")
    VALUES ((found_order."created_at" AT TIME ZONE "p_time_zone")::date, 0, revenue_delta)
    ON CONFLICT ("day") DO UPDATE SET
      "revenue_cents" = "order_daily_stats"."revenue_cents" + EXCLUDED."revenue_cents";
  END IF;
  RETURN 'changed';
END
$$;
--> statement-breakpoint
-- Everything an order post reads before it writes (readOrderContext in place-order.server.ts), as
-- one function: PL/pgSQL keeps the statement's plan per connection, where the same SELECT sent as
-- text was planned again for every order (0.25–0.45 ms of planning against 0.1 ms of execution).
CREATE FUNCTION "order_context"("p_idempotency_key" text, "p_size_ids" uuid[], "p_photo" uuid,
  "p_limits_key" text, "p_budget_key" text, "p_budget_now_ms" bigint, "p_zip" text,
  "p_settings_key" text, "p_date" date, "p_slot" text)
RETURNS TABLE ("replay" json, "sizes" json, "photo" boolean, "limits" text, "budget" json, "zones" json,
  "settings" jsonb, "closure" text, "booked" integer)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY SELECT
    (SELECT json_build_object('id', o."id", 'publicToken', o."public_token", 'totalAmountCents', o."total_amount_cents")
      FROM "orders" o WHERE o."idempotency_key" = "p_idempotency_key"),
    (SELECT json_agg(json_build_object(
        'sizeId', s."id", 'productId', s."product_id", 'size', s."size", 'priceCents', s."price_cents",
        'salePriceCents', s."sale_price_cents", 'productName', p."name", 'imageUrl', p."image_url",
        'archived', p."archived_at" IS NOT NULL, 'flowerEquivalentMg', s."flower_equivalent_mg"))
      FROM "product_sizes" s JOIN "products" p ON p."id" = s."product_id"
      WHERE s."id" = ANY ("p_size_ids")),
    (SELECT true FROM "id_photos" p WHERE p."id" = "p_photo"
      AND NOT EXISTS (SELECT 1 FROM "orders" o WHERE o."id_photo_id" = p."id")),
    (SELECT st."value"::text FROM "store_settings" st WHERE st."key" = "p_limits_key"),
    (SELECT json_build_object('points', r."points", 'expire', r."expire") FROM "rate_limits" r
      WHERE r."key" = "p_budget_key" AND r."expire" > "p_budget_now_ms"),
    (SELECT json_agg(json_build_object('state', z."state", 'active', z."active",
        'minimumOrderCents', z."minimum_order_cents", 'zipCodes', json_build_array("p_zip")))
      FROM "delivery_zones" z WHERE z."active" AND "p_zip" = ANY (z."zip_codes")),
    (SELECT st."value" FROM "store_settings" st WHERE st."key" = "p_settings_key"),
    (SELECT c."reason" FROM "delivery_closures" c WHERE c."date" = "p_date"
      AND (c."slot" IS NULL OR c."slot" = "p_slot") ORDER BY c."slot" NULLS FIRST LIMIT 1),
    (SELECT b."booked" FROM "delivery_slot_bookings" b WHERE b."delivery_date" = "p_date"
      AND b."delivery_time" = "p_slot");
END
$$;
