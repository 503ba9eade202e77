/**
 * A child process for the memory test: opens the embedded database in DATA_DIR the way the server
 * does (migrations included), runs statements of the shop's kind until PostgreSQL's hottest
 * functions have been recompiled by V8, then prints its peak RSS (VmHWM) in MB as JSON.
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../app/db/client.server.ts";

const dataDir = process.argv[2] as string;
const statements = Number(process.argv[3] ?? 400);
const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the memory test" });
for (let i = 0; i < statements; i++) {
  await handle.db.execute(
    sql`SELECT p.id, p.name, s.size, s.price_cents FROM products p LEFT JOIN product_sizes s ON s.product_id = p.id
        WHERE p.name ILIKE ${`%${i}%`} OR p.category = ${"Flower"} ORDER BY p.name LIMIT 20`,
  );
}
await handle.close();
const status = readFileSync("/proc/self/status", "utf8");
const peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
process.stdout.write(`${JSON.stringify({ peakMb: Math.round(peakMb) })}\n`);
