/**
 * `npm run audit:verify`: walks the audit log's hash chain (docs/decisions/036-audit-hash-chain.md)
 * from its first event, or from the retention purge's anchor, and names the first broken link
 * (exit 1), or says how far it verified (exit 0). `--expect <id>:<hash>` (repeatable) also checks
 * the chain still holds that hash at that event: the figure from a daily digest e-mail or a backup's
 * header, kept outside the database. On the embedded database it takes the data-folder lock like
 * the other scripts (exit 2 while the server runs on the same DATA_DIR).
 */
import { sql } from "drizzle-orm";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { rowsOf } from "../app/db/rows.ts";
import { verifyAuditChain } from "../app/features/audit/audit-chain.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";
import { exitCheckFailed } from "./check-failed.ts";

function expectations(argv: string[]) {
  const expected: { id: string; hash: string }[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const value = argument === "--expect" ? argv[++index] : argument.replace(/^--expect=/, "");
    if (argument !== "--expect" && !argument.startsWith("--expect=")) {
      throw new ConfigError(`Unknown argument ${argument}: use --expect <event id>:<hash>`);
    }
    const match = /^(\d+):([0-9a-f]{64})$/.exec(value ?? "");
    if (!match) throw new ConfigError(`--expect needs <event id>:<64 hex digits>, not ${value ?? "nothing"}`);
    expected.push({ id: match[1] as string, hash: match[2] as string });
  }
  return expected;
}

try {
  const expected = expectations(process.argv.slice(2));
  makeDataDirPrivate(config().dataDir);
  const handle = await openConfiguredDatabase("npm run audit:verify");
  try {
    const result = await verifyAuditChain(handle.db);
    if (!result.ok) {
      const before = result.verifiedUpTo ? ` (verified up to event ${result.verifiedUpTo})` : "";
      console.error(`Audit chain broken at event ${result.brokenAt}: ${result.reason}${before}.`);
      process.exitCode = 1;
    } else if (result.verifiedUpTo === null) {
      console.log(`The audit log is empty: nothing to verify (${handle.description}).`);
    } else {
      console.log(
        `Audit chain verified up to event ${result.verifiedUpTo} (${result.checked} events), last hash ${result.lastHash} (${handle.description}).`,
      );
    }
    for (const { id, hash } of expected) {
      const [row] = rowsOf<{ hash: string | null }>(
        await handle.db.execute(sql`SELECT hash FROM audit_events WHERE id = ${id}::bigint`),
      );
      if (row?.hash === hash) {
        console.log(`Event ${id} still has hash ${hash.slice(0, 16)}…, as expected.`);
      } else {
        console.error(
          row
            ? `Event ${id} has hash ${row.hash}, not the expected ${hash}: the chain was rewritten.`
            : `Event ${id} is not in the audit log (purged past the retention, or deleted).`,
        );
        process.exitCode = 1;
      }
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  exitCheckFailed(error, "audit:verify", "Audit check");
}
