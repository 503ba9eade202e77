/**
 * The 'known device' a successful sign-in leaves behind (P-30): a signed, long-lived cookie
 * naming the account, so its owner is never slowed down with the others while the account is under
 * attack. The signing key is random, made once and kept in `store_settings`, so every instance on
 * one database accepts the cookies of the others.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { storeSettings } from "#app/db/schema.ts";
import { config } from "#app/utils/env.server.ts";
import { normaliseEmail } from "./admin-users.server.ts";

export const KNOWN_DEVICE_COOKIE = "cg_known_device";
const KNOWN_DEVICE_DAYS = 180;
const SECRET_KEY = "known-device-secret";

async function readSigningKey(executor: Executor) {
  const [row] = await executor
    .select({ value: storeSettings.value })
    .from(storeSettings)
    .where(eq(storeSettings.key, SECRET_KEY));
  return typeof row?.value === "string" ? Buffer.from(row.value, "base64url") : null;
}

/** The key, made on first use; instances racing to make it agree on the one stored first. */
async function signingKey(executor: Executor): Promise<Buffer> {
  const existing = await readSigningKey(executor);
  if (existing) return existing;
  await executor
    .insert(storeSettings)
    .values({ key: SECRET_KEY, value: sql`${JSON.stringify(randomBytes(32).toString("base64url"))}::jsonb` })
    .onConflictDoNothing();
  const made = await readSigningKey(executor);
  if (!made) throw new Error("The known-device key is missing");
  return made;
}

function accountTag(email: string) {
  return createHash("sha256").update(normaliseEmail(email)).digest("base64url").slice(0, 22);
}

function signature(key: Buffer, payload: string) {
  return createHmac("sha256", key).update(payload).digest("base64url");
}

/** The Set-Cookie value that marks this browser as a known device of `email`. */
export async function knownDeviceCookie(executor: Executor, email: string, now = new Date()) {
  const expires = Math.floor(now.getTime() / 1000) + KNOWN_DEVICE_DAYS * 86_400;
  const payload = `${accountTag(email)}.${expires}`;
  const value = `${payload}.${signature(await signingKey(executor), payload)}`;
  const attributes = [
    "Path=/admin/login",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${KNOWN_DEVICE_DAYS * 86_400}`,
    ...(config().secureCookies ? ["Secure"] : []),
  ];
  return `${KNOWN_DEVICE_COOKIE}=${value}; ${attributes.join("; ")}`;
}

export function readKnownDeviceToken(request: Request): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === KNOWN_DEVICE_COOKIE) {
      const value = rest.join("=");
      return /^[\w-]{22}\.\d{1,12}\.[\w-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** Whether `token` is a valid, unexpired known-device cookie of `email`. */
export async function isKnownDevice(
  executor: Executor,
  token: string | null | undefined,
  email: string,
  now = new Date(),
) {
  if (!token) return false;
  const [tag, expires, mac] = token.split(".");
  if (!tag || !expires || !mac || tag !== accountTag(email)) return false;
  if (Number(expires) * 1000 < now.getTime()) return false;
  const expected = Buffer.from(signature(await signingKey(executor), `${tag}.${expires}`));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
