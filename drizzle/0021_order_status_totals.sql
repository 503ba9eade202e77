-- The dashboard shows delivered revenue and the value of open orders apart (decision record 048).
-- Each status's running count gets the running sum of its orders' totals, kept by a trigger on
-- orders, so place_order and change_order_status stay as they are and the dashboard reads five rows.
-- The trigger only updates the status rows (every status has one since 0010): a restore, which
-- inserts orders before their counts, sums the totals again itself (app/db/backup.server.ts).
ALTER TABLE "order_status_counts" ADD COLUMN "total_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION orders_status_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."status" = NEW."status"
     AND OLD."total_amount_cents" = NEW."total_amount_cents" THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "order_status_counts" SET "total_cents" = "total_cents" - OLD."total_amount_cents"
    WHERE "status" = OLD."status";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE "order_status_counts" SET "total_cents" = "total_cents" + NEW."total_amount_cents"
    WHERE "status" = NEW."status";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER orders_status_totals
  AFTER INSERT OR DELETE OR UPDATE OF "status", "total_amount_cents" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION orders_status_totals();--> statement-breakpoint
LOCK TABLE "orders" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "order_status_counts" ("status", "orders_count", "total_cents")
SELECT "status", 0, sum("total_amount_cents") FROM "orders" GROUP BY "status"
ON CONFLICT ("status") DO UPDATE SET "total_cents" = EXCLUDED."total_cents";
