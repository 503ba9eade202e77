CREATE TRIGGER orders_delivered_revenue_changed AFTER UPDATE OF "status", "total_amount_cents" ON "orders"
  FOR EACH ROW
  WHEN ((OLD."status" = 'delivered' OR NEW."status" = 'delivered')
    AND (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."total_amount_cents" IS DISTINCT FROM NEW."total_amount_cents"))
  EXECUTE FUNCTION delivered_revenue_changed();
