CREATE TABLE "delivery_failures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"driver_id" uuid,
	"reason" text NOT NULL,
	"note" text,
	"phone_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_failures_reason_valid" CHECK ("delivery_failures"."reason" IN ('customer-not-home', 'no-valid-id', 'under-21', 'refused', 'address-not-reachable', 'other'))
);
--> statement-breakpoint
CREATE TABLE "delivery_proofs" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"driver_id" uuid,
	"age_years" smallint NOT NULL,
	"cash_received_cents" bigint NOT NULL,
	"change_cents" bigint NOT NULL,
	"signature_key_id" text NOT NULL,
	"signature_nonce" "bytea" NOT NULL,
	"signature_bytes" "bytea" NOT NULL,
	"phone_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_proofs_age_adult" CHECK ("delivery_proofs"."age_years" >= 21),
	CONSTRAINT "delivery_proofs_change_non_negative" CHECK ("delivery_proofs"."change_cents" >= 0),
	CONSTRAINT "delivery_proofs_cash_covers_change" CHECK ("delivery_proofs"."cash_received_cents" >= "delivery_proofs"."change_cents")
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_valid";--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_reason_valid";--> statement-breakpoint
ALTER TABLE "delivery_failures" ADD CONSTRAINT "delivery_failures_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_failures" ADD CONSTRAINT "delivery_failures_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_proofs" ADD CONSTRAINT "delivery_proofs_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_failures_order_id_idx" ON "delivery_failures" USING btree ("order_id","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_valid" CHECK ("orders"."status" IN ('pending', 'confirmed', 'out_for_delivery', 'delivered', 'cancelled', 'returning'));--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_reason_valid" CHECK ("stock_movements"."reason" IN ('order', 'cancel', 'reopen', 'received', 'correction', 'import', 'return'));--> statement-breakpoint
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
          VALUES (item."product_size_id", item."quantity",
            CASE WHEN found_order."status" = 'returning' THEN 'return' ELSE 'cancel' END,
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
