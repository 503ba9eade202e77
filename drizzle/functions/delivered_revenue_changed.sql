CREATE FUNCTION delivered_revenue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "delivered_revenue" SET "total_cents" = "total_cents"
    + CASE WHEN NEW."status" = 'delivered' THEN NEW."total_amount_cents" ELSE 0 END
    - CASE WHEN OLD."status" = 'delivered' THEN OLD."total_amount_cents" ELSE 0 END
  WHERE "id" = 1;
  RETURN NULL;
END
$$;
