import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "#tests/db.ts";
import { openDatabase } from "./client.server.ts";
import { catalogState, productSizes, products } from "./schema.ts";

describeEachDatabase("database schema", (database) => {
  it("applies every migration and answers a ping", async () => {
    expect(await database().ping()).toBe(true);
    const [state] = await database().db.select().from(catalogState);
    expect(state?.version).toBeGreaterThanOrEqual(1);
  });

  it("compresses the outbox's mail bodies with lz4 where the engine has it (PostgreSQL), pglz on PGlite", async () => {
    const { db, kind } = database();
    const { rows } = (await db.execute(
      sql`SELECT attname, attcompression FROM pg_attribute
          WHERE attrelid = 'email_outbox'::regclass AND attname IN ('html_body', 'text_body') ORDER BY attname`,
    )) as unknown as { rows: { attname: string; attcompression: string }[] };
    const expected = kind === "postgres" ? "l" : "";
    expect(rows).toEqual([
      { attname: "html_body", attcompression: expected },
      { attname: "text_body", attcompression: expected },
    ]);
  });

  it("stores bytea parameters byte for byte and reads them back as Uint8Array (every byte value, empty, 2 MB)", async () => {
    const { db } = database();
    const everyByte = Uint8Array.from({ length: 256 }, (_, value) => value);
    const large = new Uint8Array(randomBytes(2 * 1024 * 1024));
    // A view into a larger buffer: only the view's bytes may be sent.
    const view = new Uint8Array(randomBytes(64)).subarray(8, 40);
    for (const bytes of [everyByte, new Uint8Array(0), large, view]) {
      const { rows } = (await db.execute(
        sql`SELECT ${bytes}::bytea AS bytes, octet_length(${bytes}::bytea) AS length`,
      )) as unknown as { rows: { bytes: Uint8Array; length: number }[] };
      expect(rows[0]?.length).toBe(bytes.byteLength);
      expect(rows[0]?.bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(rows[0]?.bytes as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it("refuses a negative price, a negative stock and an unknown order status", async () => {
    const { db } = database();
    const [product] = await db
      .insert(products)
      .values({ name: "Check", category: "Flower" })
      .returning({ id: products.id });
    const productId = product?.id as string;
    await expect(
      db.insert(productSizes).values({ productId, size: "1g", priceCents: -1, inventoryCount: 1 }),
    ).rejects.toThrow();
    await expect(
      db.insert(productSizes).values({ productId, size: "1g", priceCents: 100, inventoryCount: -1 }),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`UPDATE orders SET status = 'lost' WHERE id = gen_random_uuid()`),
    ).resolves.toBeDefined();
    await expect(
      db.execute(
        sql`INSERT INTO orders (public_token, idempotency_key, status, user_email, customer_name, phone, street, city, state, zip_code, delivery_address, delivery_date, delivery_time, total_amount_cents, quantity)
            VALUES ('t', 'k', 'lost', 'a@b.co', 'A', '1', 's', 'c', 'DC', '20001', 'x', '2026-01-01', 'slot', 100, 1)`,
      ),
    ).rejects.toThrow();
  });

  it("bumps the catalogue version when a price changes, and for stock only at 10 or below (record 026)", async () => {
    const { db } = database();
    const version = async () => (await db.select().from(catalogState))[0]?.version ?? 0;
    const [product] = await db
      .insert(products)
      .values({ name: "Versioned", category: "Edibles" })
      .returning({ id: products.id });
    const [size] = await db
      .insert(productSizes)
      .values({ productId: product?.id as string, size: "10 pack", priceCents: 2000, inventoryCount: 40 })
      .returning({ id: productSizes.id });
    const sizeId = size?.id as string;
    const before = await version();
    // Well stocked: the pages show no number, an order leaves the page cache alone.
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 12 WHERE id = ${sizeId}`);
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 11 WHERE id = ${sizeId}`);
    expect(await version()).toBe(before);
    // 10 or fewer: the pages carry the number ('Only N left', the quantity cap).
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 10 WHERE id = ${sizeId}`);
    expect(await version()).toBe(before + 1);
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 4 WHERE id = ${sizeId}`);
    expect(await version()).toBe(before + 2);
    await db.execute(sql`UPDATE product_sizes SET inventory_count = 0 WHERE id = ${sizeId}`);
    expect(await version()).toBe(before + 3);
    await db.execute(sql`UPDATE product_sizes SET price_cents = 2100 WHERE id = ${sizeId}`);
    expect(await version()).toBe(before + 4);
    // A SKU is not shown to shoppers.
    await db.execute(sql`UPDATE product_sizes SET sku = 'VERSIONED-1' WHERE id = ${sizeId}`);
    expect(await version()).toBe(before + 4);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("instances starting together on one PostgreSQL", () => {
  it("migrate one after the other: four first starts on an empty schema all succeed", async () => {
    const url = process.env.TEST_DATABASE_URL as string;
    const schema = `together_${randomBytes(6).toString("hex")}`;
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => openDatabase({ kind: "postgres", url, schema, poolSize: 2 })),
    );
    try {
      expect(results.map((result) => result.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "fulfilled",
        "fulfilled",
      ]);
      for (const result of results) {
        if (result.status === "fulfilled") expect(await result.value.ping()).toBe(true);
      }
    } finally {
      for (const result of results) if (result.status === "fulfilled") await result.value.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
