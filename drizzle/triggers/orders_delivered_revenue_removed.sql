CREATE TRIGGER orders_delivered_revenue_removed AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION delivered_revenue_removed();
