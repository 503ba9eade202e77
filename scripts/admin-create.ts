/**
 * `npm run admin:create -- --email you@example.com --password '…'`: creates an owner (who sets up
 * two-factor sign-in at the first sign-in) or resets an account's password.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { upsertAdminUser } from "../app/features/staff/admin-users.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../app/utils/password-length.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

const argsSchema = z.object({
  email: z.email("--email must be an e-mail address"),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `--password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `--password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});

const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" } } });
const parsed = argsSchema.safeParse(values);
if (!parsed.success) {
  console.error(`${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  console.error(
    `Usage: npm run admin:create -- --email you@example.com --password 'at least ${MIN_PASSWORD_LENGTH} characters'`,
  );
  process.exit(1);
}
try {
  makeDataDirPrivate(config().dataDir);
  const handle = await openConfiguredDatabase("npm run admin:create");
  try {
    const { created } = await upsertAdminUser(handle.db, parsed.data.email, parsed.data.password);
    console.log(
      `${created ? "Created the owner account" : "Updated the password of"} ${parsed.data.email}${created ? " (two-factor sign-in is set up at the first sign-in)" : ""}`,
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `Could not create the admin: ${rootCauseMessage(error)}`,
  );
  process.exit(1);
}
