/**
 * A 5,000-row catalogue CSV import (targets: ≤ 30 s, ≤ 256 MB of RSS above idle): 2,500 new
 * products of two sizes each into a shop that already has 500, previewed and then applied in one
 * transaction (with its 5,000 'import' stock movements), then the same file again (all unchanged)
 * and a re-import that changes every price and stock. Peak RSS is the kernel's high-water mark
 * (VmHWM), reset after the idle reading (/proc/self/clear_refs).
 *
 *   npx node scripts/bench/import.ts            (or: npm run bench -- --only=import)
 *   BENCH_PG_URL=postgres://… also measures PostgreSQL (a throwaway schema).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { stringify } from "csv-stringify/sync";
import { type DatabaseHandle, openDatabase, setDatabaseHandle } from "#app/db/client.server.ts";
import { applyImport, previewImport } from "#app/features/catalog/catalog-csv.server.ts";
import { CSV_COLUMNS } from "#app/features/catalog/catalog-csv.ts";
import { insertProducts } from "#app/features/catalog/product-factory.server.ts";
import { stockMismatches } from "#app/features/catalog/stock.server.ts";
import { openInThrowawaySchema } from "../../tests/support/throwaway-schema.ts";

const ROWS = 5_000;

function say(message: string) {
  process.stdout.write(`${message}\n`);
}

function rssMb(field: "VmRSS" | "VmHWM") {
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, "") ?? 0) / 1024;
}

function csvOf(priceBump: number, stockBump: number) {
  const records: string[][] = [[...CSV_COLUMNS]];
  for (let i = 0; i < ROWS; i++) {
    const product = Math.floor(i / 2);
    const large = i % 2 === 1;
    records.push([
      `BENCH-${String(i).padStart(5, "0")}`,
      `Bench Strain ${product}`,
      "Flower",
      ["Sativa", "Indica", "Hybrid"][product % 3] as string,
      `${15 + (product % 15)}%`,
      `Bench product ${product}: a description, with a comma and "quotes".`,
      large ? "7g" : "3.5g",
      ((large ? 80 : 45) + priceBump).toFixed(2),
      "",
      String(10 + (i % 40) + stockBump),
      large ? "7" : "3.5",
      product % 10 === 0 ? "yes" : "no",
      product % 7 === 0 ? "yes" : "no",
      `https://images.example/bench-${product}.jpg`,
    ]);
  }
  return stringify(records);
}

async function measure(label: string, handle: DatabaseHandle) {
  setDatabaseHandle(handle);
  await insertProducts(
    handle.db,
    Array.from({ length: 500 }, (_, i) => ({ name: `Existing ${i}`, category: "Flower" as const })),
  );
  const first = csvOf(0, 0);
  const second = csvOf(1, 3);
  // Warm the code paths on a tiny file, then read idle.
  await previewImport(first.split("\n").slice(0, 3).join("\n"));
  global.gc?.();
  const idle = rssMb("VmRSS");
  writeFileSync("/proc/self/clear_refs", "5");
  const started = performance.now();
  const plan = await previewImport(first);
  const previewS = (performance.now() - started) / 1000;
  if (plan.invalid.length > 0 || plan.create.length !== ROWS)
    throw new Error(`unexpected plan: ${plan.invalid.length} invalid, ${plan.create.length} to create`);
  const applyStarted = performance.now();
  const result = await applyImport(first);
  const applyS = (performance.now() - applyStarted) / 1000;
  if (!result.ok || result.products !== ROWS / 2)
    throw new Error(`import refused: ${JSON.stringify(result)}`);
  const peak = rssMb("VmHWM");
  const againStarted = performance.now();
  const again = await previewImport(first);
  const againS = (performance.now() - againStarted) / 1000;
  if (again.unchanged !== ROWS) throw new Error(`re-preview: ${again.unchanged} unchanged`);
  const updateStarted = performance.now();
  const updated = await applyImport(second);
  const updateS = (performance.now() - updateStarted) / 1000;
  if (!updated.ok || updated.rows !== ROWS) throw new Error("update import refused");
  const peakAll = rssMb("VmHWM");
  const mismatches = (await stockMismatches(handle.db)).length;
  const total = previewS + applyS;
  const ok = total <= 30 && updateS <= 30 && peakAll - idle <= 256 && mismatches === 0;
  say(
    `${label} ${ROWS.toLocaleString("en-US")}-row import: preview ${previewS.toFixed(1)} s + apply ${applyS.toFixed(1)} s = ${total.toFixed(1)} s (target ≤ 30 s); ` +
      `same file again: preview ${againS.toFixed(1)} s, all unchanged; every price and stock changed: ${updateS.toFixed(1)} s; ` +
      `RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB after the first import, ${peakAll.toFixed(0)} MB after all (+${(peakAll - idle).toFixed(0)} MB, target ≤ 256 MB); ` +
      `sizes whose stock ≠ ledger: ${mismatches} ${ok ? "PASS" : "FAIL"}`,
  );
  await handle.close();
  return ok;
}

let ok = await measure("[pglite]", await openDatabase({ kind: "pglite" }));
const postgresUrl = process.env.BENCH_PG_URL;
if (postgresUrl)
  ok = (await measure("[postgres]", await openInThrowawaySchema(postgresUrl, "bench_import"))) && ok;
else say("(set BENCH_PG_URL to measure PostgreSQL too)");
process.exitCode = ok ? 0 : 1;
