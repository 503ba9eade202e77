/**
 * How a checking script (`npm run stock:verify`, `npm run audit:verify`) ends when it could not run:
 * one line that says why, exit code 2 (1 is kept for "checked, and found a difference").
 */
import { DataDirLockedError } from "../app/db/data-dir-lock.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";

export function exitCheckFailed(error: unknown, script: string, what: string): never {
  if (error instanceof DataDirLockedError) {
    console.error(
      `The shop's server is using the embedded database in ${config().dataDir}: stop it, then run npm run ${script} again (${error.message}).`,
    );
    process.exit(2);
  }
  console.error(error instanceof ConfigError ? error.message : `${what} failed: ${rootCauseMessage(error)}`);
  process.exit(2);
}
