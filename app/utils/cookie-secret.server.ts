/**
 * The secret that signs the shop's own cookies (the toast): `COOKIE_SECRET`, or else a random one
 * generated on first start into `DATA_DIR/keys/cookie-secret` (folder 0700, file 0600), so signed
 * cookies survive a restart without any set-up. Several instances behind one address must share it:
 * set `COOKIE_SECRET` on each.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "./env.server.ts";

const SECRET_FILE = "cookie-secret";

let cached: string | undefined;

/** Reads (or creates once) the key file in `keysDir`. Exported for tests. */
export function readOrCreateSecretFile(keysDir: string): string {
  mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  const file = path.join(keysDir, SECRET_FILE);
  try {
    // `wx`: if another process created it first, read theirs instead of overwriting it.
    writeFileSync(file, `${randomBytes(32).toString("base64url")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  chmodSync(file, 0o600);
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32)
    throw new Error(`The cookie secret in ${file} is too short: delete the file to make a new one`);
  return secret;
}

export function cookieSecret(): string {
  if (cached) return cached;
  const { COOKIE_SECRET, dataDir } = config();
  cached = COOKIE_SECRET ?? readOrCreateSecretFile(path.join(dataDir, "keys"));
  return cached;
}
