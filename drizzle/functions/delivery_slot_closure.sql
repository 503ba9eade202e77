CREATE OR REPLACE FUNCTION "delivery_slot_closure"("p_date" date, "p_slot" text)
RETURNS TABLE ("refusal" text, "reason" text)
LANGUAGE sql STABLE AS $$
  SELECT 'closed'::text, c."reason" FROM "delivery_closures" AS c
  WHERE c."date" = "p_date" AND (c."slot" IS NULL OR c."slot" = "p_slot")
  ORDER BY c."slot" NULLS FIRST LIMIT 1
$$;
