/** `npm run stock:verify` in a process of its own, on a real embedded data folder. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { auditEvents, productSizes, stockMovements } from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const workDir = mkdtempSync(path.join(tmpdir(), "cg-stock-verify-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function verify(dataDir: string, args: string[] = []) {
  const result = spawnSync(NODE, [path.join(ROOT, "scripts", "stock-verify.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: undefined, DATA_DIR: dataDir } as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

it("passes on a shop whose stock matches its ledger, lists a size that does not, and respects the lock", async () => {
  const dataDir = path.join(workDir, "shop");
  let handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  const product = await insertProduct(handle.db, { name: "Verify Kush", category: "Flower" });
  const size = product.sizes[0] as (typeof product.sizes)[number];
  // While the test holds the data folder, the script refuses with one clear line.
  const locked = verify(dataDir);
  expect(locked.code).toBe(2);
  expect(locked.out).toContain("stop it, then run npm run stock:verify again");
  await handle.close();

  const clean = verify(dataDir);
  expect(clean.out).toContain("equals the sum of its movements for every size");
  expect(clean.code).toBe(0);

  handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  await handle.db.update(productSizes).set({ inventoryCount: 7 }).where(eq(productSizes.id, size.id));
  await handle.close();
  const broken = verify(dataDir);
  expect(broken.code).toBe(1);
  expect(broken.out).toContain(`${size.sku}  Verify Kush (${size.size}): 7 on hand, 20 in the ledger`);
}, 300_000);

it("explains each kind of gap, and --adopt records it as an audited correction (exit 1, then 0)", async () => {
  const dataDir = path.join(workDir, "upgraded");
  let handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  const product = await insertProduct(handle.db, { name: "Upgrade Haze", category: "Flower" });
  const counted = product.sizes[0] as (typeof product.sizes)[number];
  // A size an instance of a version from before the ledger created: stock, no movement.
  const [unrecorded] = await handle.db
    .insert(productSizes)
    .values({ productId: product.id, size: "28g", priceCents: 9_000, inventoryCount: 30, position: 9 })
    .returning();
  // And stock added behind the ledger's back on a size that has movements.
  await handle.db
    .update(productSizes)
    .set({ inventoryCount: counted.inventoryCount + 5 })
    .where(eq(productSizes.id, counted.id));
  await handle.close();
  if (!unrecorded) throw new Error("no size");

  const explained = verify(dataDir);
  expect(explained.code).toBe(1);
  expect(explained.out).toContain(
    `${unrecorded.sku}  Upgrade Haze (28g): 30 on hand, 0 in the ledger: stock set outside the stock ledger (by an older instance or by hand)`,
  );
  expect(explained.out).toContain(
    `${counted.sku}  Upgrade Haze (${counted.size}): ${counted.inventoryCount + 5} on hand, ${counted.inventoryCount} in the ledger: 5 added outside the stock ledger`,
  );
  expect(explained.out).toContain("npm run stock:verify -- --adopt");

  expect(verify(dataDir, ["--adopt", "--yes"]).code).toBe(2);
  const adopted = verify(dataDir, ["--adopt"]);
  expect(adopted.out).toContain("Recorded 2 size(s)' difference as a correction in the stock ledger");
  expect(adopted.out).toContain(`${unrecorded.sku}  Upgrade Haze (28g): +30`);
  expect(adopted.out).toContain("equals the sum of its movements for every size");
  expect(adopted.code).toBe(0);
  expect(verify(dataDir).code).toBe(0);

  handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  try {
    const [size] = await handle.db.select().from(productSizes).where(eq(productSizes.id, unrecorded.id));
    expect(size?.inventoryCount).toBe(30);
    const moves = await handle.db
      .select()
      .from(stockMovements)
      .where(eq(stockMovements.sizeId, unrecorded.id));
    expect(moves).toMatchObject([{ delta: 30, reason: "correction" }]);
    expect(moves[0]?.note).toContain(
      "Adopted by npm run stock:verify -- --adopt: 30 on hand, 0 in the ledger",
    );
    const events = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "stock.adopted"), eq(auditEvents.targetId, unrecorded.id)));
    expect(events).toMatchObject([
      {
        targetType: "product_size",
        actorId: null,
        details: { onHand: 30, ledger: 0, delta: 30, kind: "unrecorded" },
      },
    ]);
  } finally {
    await handle.close();
  }
}, 300_000);
