CREATE OR REPLACE FUNCTION "delivery_slot_refusal"("p_date" date, "p_slot" text, "p_capacity" integer, "p_order" uuid)
RETURNS TABLE ("refusal" text, "reason" text)
LANGUAGE plpgsql AS $$
DECLARE
  closure record;
  booked_now integer;
BEGIN
  SELECT * INTO closure FROM "delivery_slot_closure"("p_date", "p_slot");
  IF closure."refusal" IS NOT NULL THEN
    RETURN QUERY SELECT closure."refusal", closure."reason";
    RETURN;
  END IF;
  INSERT INTO "delivery_slot_bookings" AS b ("delivery_date", "delivery_time", "booked")
  VALUES ("p_date", "p_slot", 0)
  ON CONFLICT ("delivery_date", "delivery_time") DO UPDATE SET "booked" = b."booked"
  RETURNING b."booked" INTO booked_now;
  IF booked_now >= "p_capacity" THEN
    RETURN QUERY SELECT 'full'::text, NULL::text;
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::text;
END
$$;
