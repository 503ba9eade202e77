CREATE TRIGGER orders_delivered_revenue_added AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION delivered_revenue_added();
