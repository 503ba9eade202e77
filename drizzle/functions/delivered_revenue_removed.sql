CREATE FUNCTION delivered_revenue_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM removed WHERE "status" = 'delivered') THEN
    UPDATE "delivered_revenue" SET "total_cents" = "total_cents"
      - (SELECT sum("total_amount_cents") FROM removed WHERE "status" = 'delivered')
    WHERE "id" = 1;
  END IF;
  RETURN NULL;
END
$$;
