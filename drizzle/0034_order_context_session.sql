-- function order_context: the current text of
-- drizzle/functions/order_context.sql.
-- A new last argument (the customer session's token hash, default NULL) and a new last column: an
-- older instance's twelve-argument call still resolves, and it reads its columns by name.
DROP FUNCTION "order_context"(text, uuid[], uuid, text, text, bigint, text, text, date, text, text, text);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_context"("p_idempotency_key" text, "p_size_ids" uuid[], "p_photo" uuid,
  "p_limits_key" text, "p_budget_key" text, "p_budget_now_ms" bigint, "p_zip" text,
  "p_settings_key" text, "p_date" date, "p_slot" text, "p_email" text, "p_phone" text,
  "p_session_hash" text DEFAULT NULL)
RETURNS TABLE ("replay" json, "sizes" json, "photo" boolean, "limits" text, "budget" json, "zones" json,
  "settings" jsonb, "closure" text, "booked" integer, "open_email" integer, "open_phone" integer,
  "session" json)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY SELECT
    (SELECT json_build_object('id', o."id", 'publicToken', o."public_token", 'totalAmountCents', o."total_amount_cents")
      FROM "orders" o WHERE o."idempotency_key" = "p_idempotency_key"),
    (SELECT json_agg(json_build_object(
        'sizeId', s."id", 'productId', s."product_id", 'size', s."size", 'priceCents', s."price_cents",
        'salePriceCents', s."sale_price_cents", 'productName', p."name", 'imageUrl', p."image_url",
        'archived', p."archived_at" IS NOT NULL, 'flowerEquivalentMg', s."flower_equivalent_mg",
        'inventoryCount', s."inventory_count"))
      FROM "product_sizes" s JOIN "products" p ON p."id" = s."product_id"
      WHERE s."id" = ANY ("p_size_ids")),
    (SELECT true FROM "id_photos" p WHERE p."id" = "p_photo"
      AND NOT EXISTS (SELECT 1 FROM "orders" o WHERE o."id_photo_id" = p."id")),
    (SELECT st."value"::text FROM "store_settings" st WHERE st."key" = "p_limits_key"),
    (SELECT json_build_object('points', r."points", 'expire', r."expire") FROM "rate_limits" r
      WHERE r."key" = "p_budget_key" AND r."expire" > "p_budget_now_ms"),
    (SELECT json_agg(json_build_object('state', z."state", 'active', z."active",
        'minimumOrderCents', z."minimum_order_cents", 'zipCodes', json_build_array("p_zip")))
      FROM "delivery_zones" z WHERE z."active" AND "p_zip" = ANY (z."zip_codes")),
    (SELECT st."value" FROM "store_settings" st WHERE st."key" = "p_settings_key"),
    (SELECT c."reason" FROM "delivery_closures" c WHERE c."date" = "p_date"
      AND (c."slot" IS NULL OR c."slot" = "p_slot") ORDER BY c."slot" NULLS FIRST LIMIT 1),
    (SELECT b."booked" FROM "delivery_slot_bookings" b WHERE b."delivery_date" = "p_date"
      AND b."delivery_time" = "p_slot"),
    (SELECT count(*)::integer FROM "orders" o WHERE lower(o."user_email") = lower("p_email")
      AND o."status" IN ('pending', 'confirmed', 'out_for_delivery')),
    (SELECT count(*)::integer FROM "orders" o
      WHERE regexp_replace(o."phone", '\D', '', 'g') = regexp_replace("p_phone", '\D', '', 'g')
      AND o."status" IN ('pending', 'confirmed', 'out_for_delivery')),
    (SELECT json_build_object('customerId', cs."customer_id", 'csrfToken', cs."csrf_token",
        'lastSeenAt', cs."last_seen_at", 'expiresAt', cs."expires_at", 'email', c."email", 'name', c."name",
        'phone', c."phone")
      FROM "customer_sessions" cs JOIN "customers" c ON c."id" = cs."customer_id"
      WHERE cs."token_hash" = "p_session_hash");
END
$$;
