/**
 * Seeds a fresh bench database before its server starts:
 *   node scripts/bench/seed.ts <products> [--orders=<n>] [--today-orders=<n>]
 * with DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) in the environment. Orders are spread over the
 * last year with every status, and the dashboard's running totals (order_daily_stats,
 * order_status_counts) are set to what placing those orders would have left. `--today-orders` adds
 * orders for today's store date spread over the five slots (the today board's bench). `--id-photos`
 * gives every order an encrypted ID photo (under the key in DATA_DIR/keys, made here when missing):
 * about 6 KB each, as the load tests' photos, and every 50th one of 300 KB, as a phone's.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { seedDemoCatalogue } from "#app/demo/seed.server.ts";
import { DELIVERY_SLOT_LABELS } from "#app/features/delivery/delivery-slots.ts";
import { loadIdPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { insertEncryptedIdPhoto } from "#app/features/media/id-photo-keys.server.ts";
import { config } from "#app/utils/env.server.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";

const count = Number(process.argv[2] ?? 60);
const orders = Number(process.argv.find((arg) => arg.startsWith("--orders="))?.slice(9) ?? 0);
const todayOrders = Number(process.argv.find((arg) => arg.startsWith("--today-orders="))?.slice(15) ?? 0);
const withIdPhotos = process.argv.includes("--id-photos");
const handle = await openConfiguredDatabase("the bench seed script");
try {
  const result = await seedDemoCatalogue(handle.db, { count });
  process.stdout.write(`Seeded ${result.seeded} products (${result.images} images) in ${result.ms} ms\n`);
  if (orders > 0) {
    const started = performance.now();
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO orders (public_token, idempotency_key, status, user_email, customer_name, phone, street, city,
          state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, quantity,
          product_id, created_at, updated_at, status_changed_at)
        SELECT md5('t' || g), md5('k' || g),
          (ARRAY['pending', 'confirmed', 'delivered', 'cancelled'])[1 + g % 4],
          'shopper' || g || '@example.com', 'Shopper ' || g, '(202) 555-0100', '1600 Example Ave NW',
          'Washington', 'DC', '20001', '1600 Example Ave NW, Washington, DC 20001',
          -- Pending orders are for tomorrow: one whose slot had ended would be cancelled by the shop.
          CASE WHEN g % 4 = 0 THEN (now() + interval '1 day')::date ELSE (now() - (g % 365) * interval '1 day')::date END,
          '2:00 PM - 4:00 PM', 8000 + (g % 50) * 100, 1,
          (SELECT id FROM products ORDER BY created_at LIMIT 1),
          now() - (g % 365) * interval '1 day' - (g % 1440) * interval '1 minute',
          now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day'
        FROM generate_series(1, ${orders}) AS g`);
      await tx.execute(sql`
        INSERT INTO order_items (order_id, product_id, product_name, size_label, unit_price_cents, total_price_cents, quantity)
        SELECT o.id, o.product_id, 'Demo product', '3.5g', o.total_amount_cents, o.total_amount_cents, 1 FROM orders o`);
      await tx.execute(sql`DELETE FROM order_daily_stats`);
      await tx.execute(sql`
        INSERT INTO order_daily_stats (day, orders_count, revenue_cents)
        SELECT (created_at AT TIME ZONE ${STORE_TIME_ZONE})::date, count(*), sum(total_amount_cents)
        FROM orders WHERE status <> 'cancelled' GROUP BY 1`);
      await tx.execute(sql`
        UPDATE order_status_counts c SET orders_count = (SELECT count(*) FROM orders o WHERE o.status = c.status)`);
    });
    process.stdout.write(`Seeded ${orders} orders in ${Math.round(performance.now() - started)} ms\n`);
  }
  if (withIdPhotos) {
    const started = performance.now();
    const { keyring } = loadIdPhotoKeyring({
      dataDir: config().dataDir,
      currentKey: config().ID_PHOTO_KEY,
      create: true,
    });
    const small = randomUUID();
    const large = randomUUID();
    await insertEncryptedIdPhoto(handle.db, keyring, {
      id: small,
      contentType: "image/jpeg",
      bytes: randomBytes(6_000),
    });
    await insertEncryptedIdPhoto(handle.db, keyring, {
      id: large,
      contentType: "image/jpeg",
      bytes: randomBytes(300_000),
    });
    // Copies of the two sealed photos, one per order (the bench never opens them).
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE orders SET id_photo_id = gen_random_uuid() WHERE id_photo_id IS NULL`);
      await tx.execute(sql`
        INSERT INTO id_photos (id, content_type, bytes, key_id, nonce)
        SELECT o.id_photo_id, t.content_type, t.bytes, t.key_id, t.nonce
        FROM (SELECT id_photo_id, row_number() OVER (ORDER BY created_at, id) AS n FROM orders) AS o
        JOIN id_photos AS t ON t.id = CASE WHEN o.n % 50 = 0 THEN ${large}::uuid ELSE ${small}::uuid END`);
      await tx.execute(sql`DELETE FROM id_photos WHERE id IN (${small}::uuid, ${large}::uuid)`);
    });
    process.stdout.write(`Seeded ID photos in ${Math.round(performance.now() - started)} ms\n`);
  }
  if (todayOrders > 0) {
    const started = performance.now();
    const slots = DELIVERY_SLOT_LABELS;
    await handle.db.transaction(async (tx) => {
      // Orders for today, round-robin over the five slots, two items each from the first products.
      await tx.execute(sql`
        INSERT INTO orders (public_token, idempotency_key, status, user_email, customer_name, phone, street, city,
          state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, quantity, notes,
          product_id, created_at, updated_at, status_changed_at)
        SELECT md5('today-t' || g), md5('today-k' || g),
          (ARRAY['pending', 'confirmed', 'confirmed', 'delivered', 'pending', 'cancelled'])[1 + g % 6],
          'today' || g || '@example.com', 'Today Shopper ' || g, '(202) 555-0100', g || ' Example Ave NW',
          'Washington', 'DC', '20001', g || ' Example Ave NW, Washington, DC 20001',
          (now() AT TIME ZONE ${STORE_TIME_ZONE})::date,
          (${sql.raw(`ARRAY[${slots.map((slot) => `'${slot}'`).join(", ")}]`)})[1 + g % 5],
          9000 + (g % 50) * 100, 3, CASE WHEN g % 3 = 0 THEN 'Ring the bell' END,
          (SELECT id FROM products ORDER BY created_at LIMIT 1),
          now() - (g % 600) * interval '1 minute', now(), now()
        FROM generate_series(1, ${todayOrders}) AS g`);
      await tx.execute(sql`
        INSERT INTO order_items (order_id, product_id, product_name, size_label, unit_price_cents, total_price_cents, quantity)
        SELECT o.id, o.product_id, 'Demo product ' || (k + abs(hashtext(o.public_token)) % 7), '3.5g',
          o.total_amount_cents / 3, o.total_amount_cents / 3 * (k + 1), k + 1
        FROM orders o CROSS JOIN generate_series(0, 1) AS k WHERE o.customer_name LIKE 'Today Shopper %'`);
      await tx.execute(sql`
        UPDATE order_status_counts c SET orders_count = (SELECT count(*) FROM orders o WHERE o.status = c.status)`);
    });
    process.stdout.write(
      `Seeded ${todayOrders} orders for today in ${Math.round(performance.now() - started)} ms\n`,
    );
  }
} finally {
  await handle.close();
}
