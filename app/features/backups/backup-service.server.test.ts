import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { describeEachDatabase } from "#tests/db.ts";
import { runScheduledBackup, verifyBackup, writeBackup } from "./backup-service.server.ts";

const folder = mkdtempSync(path.join(tmpdir(), "cg-backup-check-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function rssMb() {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
}

describeEachDatabase("the daily backup's check", (database) => {
  it("reads each backup back and passes a good one, leaving nothing else behind", async () => {
    const { db } = database();
    await db.execute(
      sql`INSERT INTO products (name, description, category) VALUES ('Checked Kush', 'x', 'Flower')`,
    );
    const day = mkdtempSync(path.join(folder, "daily-"));
    const result = await runScheduledBackup(db, day, new Date("2026-11-20T08:30:00Z"));
    expect(result.verified).toBe(true);
    expect(readdirSync(day).sort()).toEqual([path.basename(result.file), "last-backup.json"].sort());
    expect(JSON.parse(readFileSync(path.join(day, "last-backup.json"), "utf8")).verified).toBe(true);
  });

  it("fails a backup whose rows do not all come back", async () => {
    const { db } = database();
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await writeBackup(db, file);
    await expect(verifyBackup(db, file, { ...counts, products: (counts.products ?? 0) + 1 })).rejects.toThrow(
      /restored row counts differ: products/,
    );
  });

  it("fails a backup cut short or with a row its table would refuse", async () => {
    const { db } = database();
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await writeBackup(db, file);
    const lines = gunzipSync(readFileSync(file)).toString("utf8").split("\n").filter(Boolean);
    const cut = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    writeFileSync(cut, gzipSync(`${lines.slice(0, -1).join("\n")}\n`));
    await expect(verifyBackup(db, cut, counts)).rejects.toThrow(/restored row counts differ/);
    const wrongType = lines.map((line) =>
      JSON.parse(line).table === "products"
        ? line.replace(/"created_at":"[^"]*"/, '"created_at":"soon"')
        : line,
    );
    const bad = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    writeFileSync(bad, gzipSync(`${wrongType.join("\n")}\n`));
    await expect(verifyBackup(db, bad, counts)).rejects.toThrow(/soon/);
  });

  it("fails a backup with a line of another table, or whose rows are not a list", async () => {
    const { db } = database();
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await writeBackup(db, file);
    const lines = gunzipSync(readFileSync(file)).toString("utf8").split("\n").filter(Boolean);
    const rewritten = async (change: (line: string) => string) => {
      const changed = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
      const index = lines.findIndex((line) => line.startsWith('{"table":"products"'));
      writeFileSync(
        changed,
        gzipSync(`${lines.map((line, i) => (i === index ? change(line) : line)).join("\n")}\n`),
      );
      return changed;
    };
    const otherTable = await rewritten((line) => line.replace('"table":"products"', '"table":"pg_authid"'));
    await expect(verifyBackup(db, otherTable, counts)).rejects.toThrow(/Unknown table pg_authid/);
    const notList = await rewritten(
      (line) => `{"table":"products","rows":${JSON.stringify(JSON.parse(line).rows[0])}}`,
    );
    await expect(verifyBackup(db, notList, counts)).rejects.toThrow();
    const spaced = await rewritten((line) => JSON.stringify(JSON.parse(line), null, 1).replaceAll("\n", ""));
    await verifyBackup(db, spaced, counts);
  });

  it("holds no copy of the shop in memory while it checks a backup", async () => {
    const { db } = database();
    // 150 ID photos of 400 KB of random bytes (60 MB, a month or so of a shop's orders).
    await db.execute(sql`TRUNCATE id_photos CASCADE`);
    await db.execute(sql`
      INSERT INTO id_photos (content_type, bytes)
      SELECT 'image/jpeg', (SELECT decode(string_agg(md5(random()::text || p::text || g::text), ''), 'hex')
                            FROM generate_series(1, 25000) AS g)
      FROM generate_series(1, 150) AS p`);
    const file = path.join(folder, `${crypto.randomUUID()}.ndjson.gz`);
    const { counts } = await writeBackup(db, file);
    expect(counts.id_photos).toBe(150);
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb());
    }, 20);
    try {
      await verifyBackup(db, file, counts);
    } finally {
      clearInterval(sampler);
      peak = Math.max(peak, rssMb());
    }
    await db.execute(sql`TRUNCATE id_photos CASCADE`);
    // A scratch database in memory held every restored photo twice (the table and its log), 120 MB
    // or more here; reading the file a line at a time adds a few lines' worth and the engine's own
    // buffers, which vary by some tens of MB on a loaded machine.
    expect(peak - before, `RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB`).toBeLessThan(96);
  }, 300_000);
});
