import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/rows.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");
const newDataDir = tempFolders("cg-audit-verify-");

/** `npm run audit:verify` on the embedded database in `dataDir`: its exit code and output. */
async function auditVerify(dataDir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
  delete env.DATABASE_URL;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      NODE,
      [path.join(ROOT, "scripts/audit-verify.ts"), ...args],
      { cwd: ROOT, env },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

it("npm run audit:verify says how far the chain verified, or names the first broken link (exit 1)", async () => {
  const dataDir = newDataDir();
  const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  await handle.db.execute(
    sql`INSERT INTO audit_events (action) SELECT 'test.cli' FROM generate_series(1, 5)`,
  );
  const events = rowsOf<{ id: string; hash: string }>(
    await handle.db.execute(sql`SELECT id::text AS id, hash FROM audit_events ORDER BY audit_events.id`),
  );
  const last = events.at(-1) as { id: string; hash: string };
  const third = events[2] as { id: string; hash: string };
  await handle.close();

  const intact = await auditVerify(dataDir, "--expect", `${third.id}:${third.hash}`);
  expect(intact.output).toContain(
    `Audit chain verified up to event ${last.id} (5 events), last hash ${last.hash}`,
  );
  expect(intact.output).toContain(`Event ${third.id} still has hash`);
  expect(intact.code).toBe(0);

  // What the table's owner can do: switch the append-only trigger off and change an event.
  const again = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the test" });
  await again.db.transaction(async (tx) => {
    await tx.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_change`);
    await tx.execute(sql`UPDATE audit_events SET action = 'test.rewritten' WHERE id = ${third.id}::bigint`);
    await tx.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_change`);
  });
  await again.close();
  const broken = await auditVerify(dataDir);
  expect(broken.output).toContain(`Audit chain broken at event ${third.id}: event ${third.id} was changed`);
  expect(broken.code).toBe(1);

  const wrong = await auditVerify(dataDir, "--expect", `${third.id}:${"0".repeat(64)}`);
  expect(wrong.output).toContain("the chain was rewritten");
  expect(wrong.code).toBe(1);
}, 120_000);
