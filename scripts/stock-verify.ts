/**
 * `npm run stock:verify`: checks that every size's stock on hand equals the sum of its stock
 * movements (record 026), and explains each size where it does not (stock set or changed outside
 * the ledger: by an instance of an older version during an upgrade, or by hand).
 * `npm run stock:verify -- --adopt` records each difference as a 'correction' movement (stock on
 * hand stays as it is) and each adoption in the audit log.
 * Exit codes: 0 every size agrees (after adopting, with --adopt); 1 some sizes differ (listed with
 * their explanation, nothing changed); 2 the check could not run.
 * On the embedded database it takes the data-folder lock like the other scripts: while the server
 * runs on the same DATA_DIR it refuses with one line (stop the server, or run it against
 * PostgreSQL, where it reads alongside the running shop).
 */
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { COMMAND_LINE_ORIGIN } from "../app/features/audit/audit.server.ts";
import {
  adoptStockMismatches,
  explainStockMismatch,
  type StockMismatch,
  stockMismatches,
} from "../app/features/catalog/stock.server.ts";
import { config } from "../app/utils/env.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";
import { exitCheckFailed } from "./check-failed.ts";

const USAGE = "Usage: npm run stock:verify [-- --adopt]";
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== "--adopt");
if (unknown.length > 0) {
  console.error(`Unknown argument ${unknown[0]}. ${USAGE}`);
  process.exit(2);
}
const adopt = args.includes("--adopt");

function list(rows: StockMismatch[]) {
  for (const row of rows) console.error(`  ${row.sku}  ${row.label}: ${explainStockMismatch(row)}`);
}

try {
  makeDataDirPrivate(config().dataDir);
  const handle = await openConfiguredDatabase("npm run stock:verify");
  try {
    if (adopt) {
      const adopted = await adoptStockMismatches(
        { actor: { userId: null, email: null, role: null }, origin: COMMAND_LINE_ORIGIN },
        { executor: handle.db },
      );
      if (adopted.length > 0) {
        console.log(`Recorded ${adopted.length} size(s)' difference as a correction in the stock ledger:`);
        for (const row of adopted) {
          const delta = row.onHand - row.ledger;
          console.log(
            `  ${row.sku}  ${row.label}: ${delta > 0 ? "+" : ""}${delta} (${explainStockMismatch(row)})`,
          );
        }
      }
    }
    const mismatches = await stockMismatches(handle.db);
    if (mismatches.length === 0) {
      console.log(`Stock on hand equals the sum of its movements for every size (${handle.description}).`);
    } else {
      console.error(`${mismatches.length} size(s) whose stock differs from the sum of their movements:`);
      list(mismatches);
      console.error(
        "Stock on hand is what the shop sells from; the ledger is its history. If the stock on hand is right, run `npm run stock:verify -- --adopt` to record each difference as a correction (in the audit log too); if not, correct the stock at /admin/products first.",
      );
      process.exitCode = 1;
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  exitCheckFailed(error, "stock:verify", "Stock check");
}
