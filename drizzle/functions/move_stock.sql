CREATE OR REPLACE FUNCTION "move_stock"("p_moves" jsonb, "p_actor" uuid, "p_now" timestamptz)
RETURNS TABLE ("size_id" uuid, "inventory_count" integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  short record;
BEGIN
  PERFORM 1 FROM "product_sizes" AS s
    WHERE s."id" IN (SELECT (m.value->>'size_id')::uuid FROM jsonb_array_elements("p_moves") AS m)
    ORDER BY s."id" FOR UPDATE;
  SELECT t.sid, s."inventory_count" AS on_hand INTO short
    FROM (SELECT (m.value->>'size_id')::uuid AS sid, sum((m.value->>'delta')::integer) AS delta
          FROM jsonb_array_elements("p_moves") AS m GROUP BY 1) AS t
    LEFT JOIN "product_sizes" AS s ON s."id" = t.sid
    WHERE s."id" IS NULL OR s."inventory_count" + t.delta < 0
    ORDER BY t.sid LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CG409', MESSAGE = 'stock would go below zero',
      DETAIL = short.sid::text, HINT = coalesce(short.on_hand, 0)::text;
  END IF;
  INSERT INTO "stock_movements" ("size_id", "delta", "reason", "actor_id", "note", "created_at")
  SELECT (m.value->>'size_id')::uuid, (m.value->>'delta')::integer, m.value->>'reason', "p_actor",
    nullif(m.value->>'note', ''), "p_now"
  FROM jsonb_array_elements("p_moves") AS m
  WHERE (m.value->>'delta')::integer <> 0;
  RETURN QUERY
  WITH t AS (
    SELECT (m.value->>'size_id')::uuid AS sid, sum((m.value->>'delta')::integer) AS delta
    FROM jsonb_array_elements("p_moves") AS m GROUP BY 1
  )
  , moved AS (
    UPDATE "product_sizes" AS s SET "inventory_count" = s."inventory_count" + t.delta
      FROM t WHERE s."id" = t.sid AND t.delta <> 0
      RETURNING s."id" AS sid, s."inventory_count" AS left_after
  )
  SELECT moved.sid, moved.left_after FROM moved;
END
$$;
