import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { describeEachDatabase } from "#tests/db.ts";
import { backupDatabase, restoreDatabase } from "./backup.server.ts";
import { adminUsers, catalogState, mediaFiles, productSizes, products } from "./schema.ts";

const folder = mkdtempSync(path.join(tmpdir(), "cg-backup-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeEachDatabase("backup and restore", (database) => {
  it("round-trips every table, binary data and timestamps included", async () => {
    const { db } = database();
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    const [product] = await db
      .insert(products)
      .values({ name: "Round Trip Kush", category: "Flower", thcPercentage: 22.5, isFeatured: true })
      .returning();
    await db.insert(productSizes).values([
      {
        productId: product?.id as string,
        size: "3.5g",
        priceCents: 4500,
        salePriceCents: 3900,
        inventoryCount: 7,
      },
      { productId: product?.id as string, size: "7g", priceCents: 8000, inventoryCount: 0 },
    ]);
    await db.insert(mediaFiles).values({
      path: "abc-160.webp",
      imageKey: "abc",
      width: 160,
      height: 160,
      contentType: "image/webp",
      bytes,
    });
    await db.insert(adminUsers).values({ email: "owner@capitalgrown.test", passwordHash: "$argon2id$x" });

    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const counts = await backupDatabase(db, file);
    expect(counts.products).toBe(1);
    expect(counts.product_sizes).toBe(2);

    // Lose the data, then bring it back.
    await db.execute(sql`TRUNCATE products, media_files, admin_users CASCADE`);
    expect(await db.select().from(products)).toHaveLength(0);
    const versionBefore = (await db.select().from(catalogState))[0]?.version ?? 0;

    const restored = await restoreDatabase(db, file);
    expect(restored.products).toBe(1);
    const [back] = await db
      .select()
      .from(products)
      .where(eq(products.id, product?.id as string));
    expect(back).toEqual(product);
    const sizes = await db.select().from(productSizes).orderBy(productSizes.priceCents);
    expect(
      sizes.map((size) => [size.size, size.priceCents, size.salePriceCents, size.inventoryCount]),
    ).toEqual([
      ["3.5g", 4500, 3900, 7],
      ["7g", 8000, null, 0],
    ]);
    const [media] = await db.select().from(mediaFiles);
    expect(Array.from(media?.bytes ?? [])).toEqual(Array.from(bytes));
    expect((await db.select().from(adminUsers))[0]?.email).toBe("owner@capitalgrown.test");
    // Restoring invalidates every cached catalogue page.
    expect((await db.select().from(catalogState))[0]?.version ?? 0).toBeGreaterThan(versionBefore);
  });

  it("refuses a file that is not a backup and leaves the data alone", async () => {
    const { db } = database();
    const { gzipSync } = await import("node:zlib");
    const { writeFileSync } = await import("node:fs");
    const file = path.join(folder, "not-a-backup.gz");
    writeFileSync(file, gzipSync('{"hello":"world"}\n'));
    const before = await db.select().from(products);
    await expect(restoreDatabase(db, file)).rejects.toThrow(/not a Capital Grown backup/);
    expect(await db.select().from(products)).toEqual(before);
  });
});
