CREATE TABLE "delivery_closures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"date" date NOT NULL,
	"slot" text,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_zones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"zip_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"minimum_order_cents" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_zones_state_valid" CHECK ("delivery_zones"."state" IN ('DC', 'VA')),
	CONSTRAINT "delivery_zones_minimum_non_negative" CHECK ("delivery_zones"."minimum_order_cents" IS NULL OR "delivery_zones"."minimum_order_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pay_with_cents" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_closures_date_slot_idx" ON "delivery_closures" USING btree ("date",coalesce("slot", ''));--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_zones_name_idx" ON "delivery_zones" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "orders_delivery_slot_idx" ON "orders" USING btree ("delivery_date","delivery_time") WHERE "orders"."status" <> 'cancelled';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_pay_with_non_negative" CHECK ("orders"."pay_with_cents" IS NULL OR "orders"."pay_with_cents" >= 0);--> statement-breakpoint
-- Decision 21: the shop's delivery area, seeded once (this migration runs once per database) from
-- app/features/delivery/delivery-area-seed.ts; app/features/delivery/delivery-zones.server.test.ts
-- checks that these rows are that file's. Staff edit them at /admin/settings/delivery.
INSERT INTO "delivery_zones" ("name", "state", "active", "zip_codes", "minimum_order_cents", "position") VALUES
  ('District of Columbia', 'DC', true, '{20001,20002,20003,20004,20005,20006,20007,20008,20009,20010,20011,20012,20015,20016,20017,20018,20019,20020,20024,20032,20036,20037}', NULL, 0),
  ('Arlington County', 'VA', true, '{22201,22202,22203,22204,22205,22206,22207,22209,22213,22214}', NULL, 1),
  ('City of Alexandria', 'VA', true, '{22301,22302,22304,22305,22311,22314}', NULL, 2),
  ('Fairfax County', 'VA', true, '{20120,20121,20124,20151,20170,20171,20190,20191,20194,22003,22015,22027,22031,22032,22033,22039,22041,22042,22043,22044,22066,22079,22101,22102,22124,22150,22151,22152,22153,22180,22181,22182,22303,22306,22307,22308,22309,22310,22312,22315}', NULL, 3),
  ('City of Fairfax', 'VA', true, '{22030}', NULL, 4),
  ('City of Falls Church', 'VA', true, '{22046}', NULL, 5);
--> statement-breakpoint
-- The DC landing page lists the delivery area and answers 'Do we deliver to you?': a zone change
-- makes cached catalogue pages stale (decision 004).
CREATE TRIGGER "delivery_zones_bump_catalog_version"
  AFTER INSERT OR UPDATE OR DELETE ON "delivery_zones"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
--> statement-breakpoint
-- Decision 22: may one more order take a place in slot p_slot of p_date? Answers NULL (yes),
-- 'closed' with the closure's reason, or 'full'. Orders that are not cancelled hold a place; the
-- order p_order (the one being placed or reopened) is not counted. It takes a transaction-scoped
-- advisory lock on the date and slot first, so concurrent callers for one slot take turns and each
-- counts the others' committed orders: call it inside the transaction that writes the order, before
-- touching stock rows (place_order's lock order: rate_limits row, open-order locks, this lock,
-- product_sizes rows, running totals), and raise if it answers non-NULL.
-- p_capacity is the slot's capacity for that date (app/features/delivery/delivery-settings.ts,
-- `slotCapacity`), read by the caller from the delivery settings.
CREATE FUNCTION "delivery_slot_refusal"("p_date" date, "p_slot" text, "p_capacity" integer, "p_order" uuid)
RETURNS TABLE ("refusal" text, "reason" text)
LANGUAGE plpgsql AS $$
DECLARE
  closure text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery-slot:' || "p_date"::text || ' ' || "p_slot", 0));
  SELECT c."reason" INTO closure FROM "delivery_closures" AS c
    WHERE c."date" = "p_date" AND (c."slot" IS NULL OR c."slot" = "p_slot")
    ORDER BY c."slot" NULLS FIRST LIMIT 1;
  IF FOUND THEN
    RETURN QUERY SELECT 'closed'::text, closure;
    RETURN;
  END IF;
  IF (SELECT count(*) FROM "orders" AS o
      WHERE o."delivery_date" = "p_date" AND o."delivery_time" = "p_slot" AND o."status" <> 'cancelled'
        AND o."id" IS DISTINCT FROM "p_order") >= "p_capacity" THEN
    RETURN QUERY SELECT 'full'::text, NULL::text;
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::text;
END
$$;
--> statement-breakpoint
-- place_order (drizzle/0004) again, changed in two places only (marked "0009"):
--   the order's 'I'll pay with' amount (pay_with_cents, decision 24) is written with the order;
--   when p_order carries slot_capacity, delivery_slot_refusal is asked under its slot lock:
--   SQLSTATE CG410 with DETAIL 'full' or 'closed' (HINT: the closure's reason) refuses the order.
DROP FUNCTION "place_order"(jsonb, jsonb, jsonb);--> statement-breakpoint
CREATE FUNCTION "place_order"("p_order" jsonb, "p_lines" jsonb, "p_mails" jsonb)
RETURNS TABLE ("order_id" uuid, "order_token" text, "order_total_cents" bigint, "order_replayed" boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  placed uuid;
  line jsonb;
  locked record;
  budget record;
  slot record;
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

  -- 0009: slot capacity and closures (decision 22), under the date-and-slot lock.
  IF ("p_order"->>'slot_capacity') IS NOT NULL THEN
    SELECT * INTO slot FROM "delivery_slot_refusal"(("p_order"->>'delivery_date')::date,
      "p_order"->>'delivery_time', ("p_order"->>'slot_capacity')::integer, placed);
    IF slot."refusal" IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'CG410', MESSAGE = 'delivery slot unavailable',
        DETAIL = slot."refusal", HINT = coalesce(slot."reason", '');
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
