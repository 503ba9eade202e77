/**
 * Passkeys for customers (record 053), added after a first sign-in with a code. The shop is the
 * relying party of PUBLIC_URL's host; attestation is 'none' (the shop trusts the authenticator the
 * customer chose), so what it keeps is the credential's id, its public key (SPKI, as the browser's
 * `getPublicKey()` gives it) and its signature counter. A ceremony's challenge is single-use and
 * lives 5 minutes, its row found by a random token in a short-lived cookie. Each sign-in with a
 * passkey spends the client address's sign-in budget, as a code does.
 */
import { createHash, createPublicKey, randomBytes, verify } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { customerPasskeyChallenges, customerPasskeys, customers } from "#app/db/schema.ts";
import { consumeBudget, refundBudget } from "#app/features/abuse/rate-limits.server.ts";
import { config } from "#app/utils/env.server.ts";
import { createCustomerSession, hashCustomerToken } from "./customer-sessions.server.ts";

export const PASSKEY_COOKIE = "cg_customer_passkey";
const CHALLENGE_MS = 5 * 60_000;
/** ES256 and RS256, the two every platform authenticator offers. */
const ALGORITHMS = [-7, -257] as const;
const MAX_PASSKEYS = 10;

function relyingParty() {
  const url = new URL(config().publicUrl);
  return { id: url.hostname, origin: url.origin, name: config().STORE_NAME };
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest();

export function passkeyChallengeCookie(token: string) {
  const parts = [`${PASSKEY_COOKIE}=${token}`, "Path=/account", "HttpOnly", "SameSite=Strict", "Max-Age=300"];
  if (config().secureCookies) parts.push("Secure");
  return parts.join("; ");
}

async function newChallenge(customerId: string | null) {
  const database = await db();
  const token = randomBytes(32).toString("base64url");
  const challenge = randomBytes(32).toString("base64url");
  const now = new Date();
  await database.delete(customerPasskeyChallenges).where(lt(customerPasskeyChallenges.expiresAt, now));
  await database.insert(customerPasskeyChallenges).values({
    tokenHash: hashCustomerToken(token),
    challenge,
    customerId,
    expiresAt: new Date(now.getTime() + CHALLENGE_MS),
  });
  return { token, challenge };
}

/** Takes the challenge of `token` (once): null when unknown, expired, or another ceremony's. */
async function takeChallenge(token: string | undefined, customerId: string | null) {
  if (!token) return null;
  const database = await db();
  const [row] = await database
    .delete(customerPasskeyChallenges)
    .where(
      and(
        eq(customerPasskeyChallenges.tokenHash, hashCustomerToken(token)),
        gt(customerPasskeyChallenges.expiresAt, new Date()),
        customerId === null
          ? isNull(customerPasskeyChallenges.customerId)
          : eq(customerPasskeyChallenges.customerId, customerId),
      ),
    )
    .returning({ challenge: customerPasskeyChallenges.challenge });
  return row?.challenge ?? null;
}

export async function listPasskeys(customerId: string) {
  const database = await db();
  const rows = await database
    .select({
      id: customerPasskeys.id,
      createdAt: customerPasskeys.createdAt,
      lastUsedAt: customerPasskeys.lastUsedAt,
    })
    .from(customerPasskeys)
    .where(eq(customerPasskeys.customerId, customerId))
    .orderBy(customerPasskeys.createdAt);
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Options for `navigator.credentials.create`, JSON-safe (binary fields in base64url). */
export async function registrationOptions(customer: { customerId: string; email: string }) {
  const rp = relyingParty();
  const { token, challenge } = await newChallenge(customer.customerId);
  const existing = await listPasskeys(customer.customerId);
  return {
    token,
    options: {
      challenge,
      rp: { id: rp.id, name: rp.name },
      user: {
        id: b64url(Buffer.from(customer.customerId.replaceAll("-", ""), "hex")),
        name: customer.email,
        displayName: customer.email,
      },
      pubKeyCredParams: ALGORITHMS.map((alg) => ({ type: "public-key", alg })),
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      excludeCredentials: existing.map((passkey) => ({ type: "public-key", id: passkey.id })),
      timeout: CHALLENGE_MS,
      attestation: "none",
    },
  };
}

type ClientData = { type?: unknown; challenge?: unknown; origin?: unknown };

function checkClientData(clientDataJSON: Buffer, type: string, challenge: string): string | null {
  let clientData: ClientData;
  try {
    clientData = JSON.parse(clientDataJSON.toString("utf8")) as ClientData;
  } catch {
    return "unreadable client data";
  }
  if (clientData.type !== type) return "wrong ceremony";
  if (clientData.challenge !== challenge) return "wrong challenge";
  if (clientData.origin !== relyingParty().origin) return "wrong origin";
  return null;
}

/** The parts of authenticator data the shop checks: the relying party, the flags and the counter. */
function readAuthenticatorData(authData: Buffer) {
  if (authData.length < 37) return null;
  const flags = authData[32] as number;
  return {
    rpIdHash: authData.subarray(0, 32),
    userPresent: (flags & 0x01) !== 0,
    attested: (flags & 0x40) !== 0,
    counter: authData.readUInt32BE(33),
    credentialId:
      (flags & 0x40) !== 0 && authData.length >= 55
        ? authData.subarray(55, 55 + authData.readUInt16BE(53))
        : null,
  };
}

const fromB64url = (value: unknown) =>
  typeof value === "string" && /^[A-Za-z0-9_-]{1,4096}$/.test(value) ? Buffer.from(value, "base64url") : null;

export type PasskeyResult<T> = ({ ok: true } & T) | { ok: false; error: string };

/** Keeps a new passkey of a signed-in customer from the browser's `create()` answer. */
export async function verifyRegistration(
  customerId: string,
  token: string | undefined,
  body: Record<string, unknown>,
): Promise<PasskeyResult<object>> {
  const challenge = await takeChallenge(token, customerId);
  if (!challenge) return { ok: false, error: "The passkey request expired. Try again." };
  const id = typeof body.id === "string" && /^[A-Za-z0-9_-]{16,1366}$/.test(body.id) ? body.id : null;
  const clientDataJSON = fromB64url(body.clientDataJSON);
  const authData = fromB64url(body.authenticatorData);
  const publicKey = fromB64url(body.publicKey);
  if (!id || !clientDataJSON || !authData || !publicKey)
    return { ok: false, error: "The passkey answer is incomplete." };
  const clientProblem = checkClientData(clientDataJSON, "webauthn.create", challenge);
  if (clientProblem) return { ok: false, error: "The passkey answer does not match this shop." };
  const parsed = readAuthenticatorData(authData);
  if (!parsed?.userPresent || !parsed.attested || !parsed.rpIdHash.equals(sha256(relyingParty().id))) {
    return { ok: false, error: "The passkey answer does not match this shop." };
  }
  if (!parsed.credentialId?.equals(Buffer.from(id, "base64url"))) {
    return { ok: false, error: "The passkey answer is incomplete." };
  }
  try {
    createPublicKey({ key: publicKey, format: "der", type: "spki" });
  } catch {
    return { ok: false, error: "This passkey's key type is not supported." };
  }
  const database = await db();
  const existing = await listPasskeys(customerId);
  if (existing.length >= MAX_PASSKEYS)
    return { ok: false, error: `You can keep up to ${MAX_PASSKEYS} passkeys.` };
  const transports = Array.isArray(body.transports)
    ? body.transports
        .filter((value): value is string => typeof value === "string")
        .slice(0, 6)
        .join(",")
    : "";
  await database
    .insert(customerPasskeys)
    .values({ id, customerId, publicKey, counter: parsed.counter, transports: transports.slice(0, 100) })
    .onConflictDoNothing();
  return { ok: true };
}

/** Options for `navigator.credentials.get` (a discoverable passkey: no e-mail asked first). */
export async function authenticationOptions() {
  const rp = relyingParty();
  const { token, challenge } = await newChallenge(null);
  return { token, options: { challenge, rpId: rp.id, timeout: CHALLENGE_MS, userVerification: "preferred" } };
}

/** Signs in with a passkey from the browser's `get()` answer. */
export async function verifyAuthentication(input: {
  token: string | undefined;
  body: Record<string, unknown>;
  ipAddress: string;
  userAgent?: string;
  previousToken?: string;
}): Promise<
  PasskeyResult<{ sessionToken: string }> | { ok: false; error: string; retryAfterSeconds: number }
> {
  const budget = await consumeBudget("customerCodeAddress", input.ipAddress);
  if (!budget.ok) {
    return {
      ok: false,
      error: "Too many sign-in attempts. Please wait and try again.",
      retryAfterSeconds: budget.retryAfterSeconds,
    };
  }
  const refused = {
    ok: false as const,
    error: "That passkey did not work here. Sign in with a code instead.",
  };
  const challenge = await takeChallenge(input.token, null);
  if (!challenge) return { ok: false, error: "The passkey request expired. Try again." };
  const { body } = input;
  const id = typeof body.id === "string" && /^[A-Za-z0-9_-]{16,1366}$/.test(body.id) ? body.id : null;
  const clientDataJSON = fromB64url(body.clientDataJSON);
  const authData = fromB64url(body.authenticatorData);
  const signature = fromB64url(body.signature);
  if (!id || !clientDataJSON || !authData || !signature) return refused;
  const database = await db();
  const [passkey] = await database
    .select({
      customerId: customerPasskeys.customerId,
      publicKey: customerPasskeys.publicKey,
      counter: customerPasskeys.counter,
    })
    .from(customerPasskeys)
    .where(eq(customerPasskeys.id, id));
  if (!passkey) return refused;
  if (checkClientData(clientDataJSON, "webauthn.get", challenge)) return refused;
  const parsed = readAuthenticatorData(authData);
  if (!parsed?.userPresent || !parsed.rpIdHash.equals(sha256(relyingParty().id))) return refused;
  let valid = false;
  try {
    const key = createPublicKey({ key: Buffer.from(passkey.publicKey), format: "der", type: "spki" });
    valid = verify("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), key, signature);
  } catch {
    valid = false;
  }
  if (!valid) return refused;
  // A counter that does not move forward means a copied authenticator (both zero: one that keeps none).
  if ((parsed.counter !== 0 || passkey.counter !== 0) && parsed.counter <= passkey.counter) return refused;
  const sessionToken = await database.transaction(async (tx) => {
    const now = new Date();
    await tx
      .update(customerPasskeys)
      .set({ counter: parsed.counter, lastUsedAt: now })
      .where(eq(customerPasskeys.id, id));
    const [customer] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.id, passkey.customerId));
    if (!customer) return null;
    return createCustomerSession(tx, customer.id, {
      previousToken: input.previousToken,
      userAgent: input.userAgent,
      now,
    });
  });
  if (!sessionToken) return refused;
  await refundBudget("customerCodeAddress", input.ipAddress);
  return { ok: true, sessionToken };
}
