/** `npm run stock:verify` in a process of its own, on a real embedded data folder. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { productSizes } from "#app/db/schema.ts";
import { insertProduct } from "#app/features/catalog/product-factory.server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const workDir = mkdtempSync(path.join(tmpdir(), "cg-stock-verify-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function verify(dataDir: string) {
  const result = spawnSync(NODE, [path.join(ROOT, "scripts", "stock-verify.ts")], {
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
