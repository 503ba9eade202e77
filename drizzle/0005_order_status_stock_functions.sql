-- Order status changes in one statement, next to place_order (decision 020): stock and the running
-- totals move in SQL only. Cancelling puts every item's quantity back on its size (when the size still
-- exists); moving a cancelled order on takes it out again, in size-id order, and refuses when the stock
-- no longer covers it; revenue excludes cancelled orders; status counts follow every change.
--   Returns 'not-found', 'unchanged' or 'changed'.
--   SQLSTATE CG409: un-cancelling needs stock that is gone (DETAIL is "<product> (<size>)").
-- The store day of the order (its revenue row) is computed in the store's time zone, passed in.
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
  SELECT o."status", o."created_at", o."total_amount_cents" INTO found_order
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
      ELSE
        UPDATE "product_sizes" AS s SET "inventory_count" = s."inventory_count" - item."quantity"
          WHERE s."id" = item."product_size_id" AND s."inventory_count" >= item."quantity";
        IF NOT FOUND THEN
          RAISE EXCEPTION USING ERRCODE = 'CG409', MESSAGE = 'out of stock',
            DETAIL = item."product_name" || ' (' || item."size_label" || ')';
        END IF;
      END IF;
    END LOOP;
    revenue_delta := CASE WHEN "p_status" = 'cancelled' THEN -found_order."total_amount_cents"
      ELSE found_order."total_amount_cents" END;
  END IF;

  UPDATE "orders" AS o SET "status" = "p_status", "status_changed_at" = "p_now", "updated_at" = "p_now",
    "cancel_reason" = CASE WHEN "p_status" = 'cancelled' THEN "p_cancel_reason" ELSE NULL END
    WHERE o."id" = "p_order_id";

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
