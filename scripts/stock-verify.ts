/**
 * `npm run stock:verify`: checks that every size's stock on hand equals the sum of its stock
 * movements (decision 026). Lists the sizes where it does not and exits 1; exits 0 when all agree.
 * On the embedded database it takes the data-folder lock like the other scripts: while the server
 * runs on the same DATA_DIR it refuses with one line (stop the server, or run it against
 * PostgreSQL, where it reads alongside the running shop).
 */
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { DataDirLockedError } from "../app/db/data-dir-lock.server.ts";
import { stockMismatches } from "../app/features/catalog/stock.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

try {
  makeDataDirPrivate(config().dataDir);
  const handle = await openConfiguredDatabase("npm run stock:verify");
  try {
    const mismatches = await stockMismatches(handle.db);
    if (mismatches.length === 0) {
      console.log(`Stock on hand equals the sum of its movements for every size (${handle.description}).`);
    } else {
      console.error(`${mismatches.length} size(s) whose stock differs from the sum of their movements:`);
      for (const row of mismatches) {
        console.error(
          `  ${row.sku}  ${row.label}: ${row.onHand} on hand, ${row.ledger} in the ledger (size ${row.sizeId})`,
        );
      }
      process.exitCode = 1;
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(
      `The shop's server is using the embedded database in ${config().dataDir}: stop it, then run npm run stock:verify again (${error.message}).`,
    );
    process.exit(2);
  }
  console.error(
    error instanceof ConfigError ? error.message : `Stock check failed: ${rootCauseMessage(error)}`,
  );
  process.exit(2);
}
