-- The dashboard's revenue is delivered orders only, with open orders' value apart (decision record
-- 048). Open orders' value is the non-cancelled revenue order_daily_stats already keeps, less this
-- running sum of delivered orders' totals. Triggers on orders keep it, so place_order and
-- change_order_status stay as they are:
--   - inserts and deletes per statement (a bulk load updates the row once), touching the row only
--     when delivered orders come or go: an order placed (pending) never locks it;
--   - a change of status to or from delivered (or of a delivered order's total) per row.
-- A restore (which truncates orders) sums it again from the orders (app/db/backup.server.ts).
CREATE TABLE "delivered_revenue" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "delivered_revenue_one_row" CHECK ("delivered_revenue"."id" = 1)
);--> statement-breakpoint
CREATE FUNCTION delivered_revenue_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM added WHERE "status" = 'delivered') THEN
    UPDATE "delivered_revenue" SET "total_cents" = "total_cents"
      + (SELECT sum("total_amount_cents") FROM added WHERE "status" = 'delivered')
    WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION delivered_revenue_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM removed WHERE "status" = 'delivered') THEN
    UPDATE "delivered_revenue" SET "total_cents" = "total_cents"
      - (SELECT sum("total_amount_cents") FROM removed WHERE "status" = 'delivered')
    WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION delivered_revenue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "delivered_revenue" SET "total_cents" = "total_cents"
    + CASE WHEN NEW."status" = 'delivered' THEN NEW."total_amount_cents" ELSE 0 END
    - CASE WHEN OLD."status" = 'delivered' THEN OLD."total_amount_cents" ELSE 0 END
  WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER orders_delivered_revenue_added AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION delivered_revenue_added();--> statement-breakpoint
CREATE TRIGGER orders_delivered_revenue_removed AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION delivered_revenue_removed();--> statement-breakpoint
CREATE TRIGGER orders_delivered_revenue_changed AFTER UPDATE OF "status", "total_amount_cents" ON "orders"
  FOR EACH ROW
  WHEN ((OLD."status" = 'delivered' OR NEW."status" = 'delivered')
    AND (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."total_amount_cents" IS DISTINCT FROM NEW."total_amount_cents"))
  EXECUTE FUNCTION delivered_revenue_changed();--> statement-breakpoint
LOCK TABLE "orders" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "delivered_revenue" ("id", "total_cents")
SELECT 1, coalesce(sum("total_amount_cents"), 0) FROM "orders" WHERE "status" = 'delivered';
