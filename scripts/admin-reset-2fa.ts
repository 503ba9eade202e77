/**
 * `npm run admin:reset-2fa -- --email owner@example.com`: clears a staff member's second factor and
 * recovery codes, and ends their sessions and open sign-in attempts — the way back in when the
 * only owner lost their phone. They set up two-factor sign-in again at their next sign-in. Audited.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { COMMAND_LINE_ORIGIN } from "../app/features/audit/audit.server.ts";
import { findAdminByEmail } from "../app/features/staff/admin-users.server.ts";
import { endSignInChallenges } from "../app/features/staff/sign-in-challenge.server.ts";
import { resetTwoFactor } from "../app/features/staff/two-factor.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

const argsSchema = z.object({ email: z.string().trim().min(3, "--email is required").max(320) });
const { values } = parseArgs({ options: { email: { type: "string" } } });
const parsed = argsSchema.safeParse(values);
if (!parsed.success) {
  console.error(parsed.error.issues.map((issue) => issue.message).join("; "));
  console.error("Usage: npm run admin:reset-2fa -- --email owner@example.com");
  process.exit(1);
}
try {
  makeDataDirPrivate(config().dataDir);
  const handle = await openConfiguredDatabase("npm run admin:reset-2fa");
  try {
    const user = await findAdminByEmail(handle.db, parsed.data.email);
    if (!user) {
      console.error(`No staff member has the e-mail ${parsed.data.email}`);
      process.exitCode = 1;
    } else {
      await handle.db.transaction(async (tx) => {
        await resetTwoFactor(tx, {
          userId: user.id,
          actor: { userId: null, email: "npm run admin:reset-2fa", role: null },
          origin: COMMAND_LINE_ORIGIN,
        });
        await endSignInChallenges(tx, user.id);
      });
      console.log(
        `Cleared the second factor of ${user.email}: they set up two-factor sign-in again at their next sign-in.`,
      );
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Could not reset the second factor: ${rootCauseMessage(error)}`,
  );
  process.exit(1);
}
