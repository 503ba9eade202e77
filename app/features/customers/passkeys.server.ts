/**
 * Passkeys for customers (record 053), added after a first sign-in with a code, verified by
 * `@simplewebauthn/server`. The shop is the relying party of PUBLIC_URL's host; attestation is
 * 'none' (the shop trusts the authenticator the customer chose), so what it keeps is what the
 * library hands back: the credential's id, its COSE public key, its signature counter and
 * transports. A ceremony's challenge is single-use and lives 5 minutes, its row found by a random
 * token in a short-lived cookie. Each sign-in with a passkey spends the client address's sign-in
 * budget, as a code does.
 */
import { randomBytes } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { db } from "#app/db/client.server.ts";
import { customerPasskeyChallenges, customerPasskeys, customers } from "#app/db/schema.ts";
import { consumeBudget, refundBudget } from "#app/features/abuse/rate-limits.server.ts";
import { config } from "#app/utils/env.server.ts";
import { createCustomerSession, hashCustomerToken } from "./customer-sessions.server.ts";
import { joinGuestOrders } from "./sign-in.server.ts";

export const PASSKEY_COOKIE = "cg_customer_passkey";
const CHALLENGE_MS = 5 * 60_000;
/** ES256 and RS256, the two every platform authenticator offers. */
const ALGORITHMS = [-7, -257] as const;
const MAX_PASSKEYS = 10;

function relyingParty() {
  const url = new URL(config().publicUrl);
  return { id: url.hostname, origin: url.origin, name: config().STORE_NAME };
}

const TRANSPORTS = new Set<AuthenticatorTransport>(["ble", "hybrid", "internal", "nfc", "usb"]);

export function passkeyChallengeCookie(token: string) {
  const parts = [`${PASSKEY_COOKIE}=${token}`, "Path=/account", "HttpOnly", "SameSite=Strict", "Max-Age=300"];
  if (config().secureCookies) parts.push("Secure");
  return parts.join("; ");
}

/** Keeps the library's challenge for one ceremony; the browser gets the token that finds it. */
async function keepChallenge(customerId: string | null, challenge: string) {
  const database = await db();
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  await database.delete(customerPasskeyChallenges).where(lt(customerPasskeyChallenges.expiresAt, now));
  await database.insert(customerPasskeyChallenges).values({
    tokenHash: hashCustomerToken(token),
    challenge,
    customerId,
    expiresAt: new Date(now.getTime() + CHALLENGE_MS),
  });
  return token;
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

/** Options for `startRegistration` (the library's JSON: binary fields in base64url). */
export async function registrationOptions(customer: { customerId: string; email: string }) {
  const rp = relyingParty();
  const database = await db();
  const existing = await database
    .select({ id: customerPasskeys.id, transports: customerPasskeys.transports })
    .from(customerPasskeys)
    .where(eq(customerPasskeys.customerId, customer.customerId));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: Buffer.from(customer.customerId.replaceAll("-", ""), "hex"),
    userName: customer.email,
    userDisplayName: customer.email,
    timeout: CHALLENGE_MS,
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.id,
      transports: readTransports(passkey.transports),
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    supportedAlgorithmIDs: [...ALGORITHMS],
  });
  const token = await keepChallenge(customer.customerId, options.challenge);
  return { token, options };
}

function readTransports(stored: string): AuthenticatorTransport[] {
  return stored
    .split(",")
    .filter((value): value is AuthenticatorTransport => TRANSPORTS.has(value as AuthenticatorTransport));
}

/**
 * The browser's answer, posted as one form field of JSON (`startRegistration`'s or
 * `startAuthentication`'s result); the library checks its fields.
 */
function readResponse<T extends { id: string }>(body: Record<string, unknown>): T | null {
  if (typeof body.response !== "string" || body.response.length > 64_000) return null;
  try {
    const value = JSON.parse(body.response) as unknown;
    if (
      typeof value !== "object" ||
      value === null ||
      typeof (value as { id?: unknown }).id !== "string" ||
      !/^[A-Za-z0-9_-]{16,1366}$/.test((value as { id: string }).id)
    ) {
      return null;
    }
    return value as T;
  } catch {
    return null;
  }
}

/** What the library checks a ceremony's answer against: its challenge, the shop's origin and host. */
function expectedAnswer(challenge: string) {
  const rp = relyingParty();
  return {
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  };
}

export type PasskeyResult<T> = ({ ok: true } & T) | { ok: false; error: string };

/** Keeps a new passkey of a signed-in customer from `startRegistration`'s answer. */
export async function verifyRegistration(
  customerId: string,
  token: string | undefined,
  body: Record<string, unknown>,
): Promise<PasskeyResult<object>> {
  const challenge = await takeChallenge(token, customerId);
  if (!challenge) return { ok: false, error: "The passkey request expired. Try again." };
  const response = readResponse<RegistrationResponseJSON>(body);
  if (!response) return { ok: false, error: "The passkey answer is incomplete." };
  let credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] };
  try {
    // Checks the ceremony type, the challenge, the origin, the relying party's hash, user presence
    // and that the key is of an offered algorithm.
    const verification = await verifyRegistrationResponse({
      response,
      ...expectedAnswer(challenge),
      supportedAlgorithmIDs: [...ALGORITHMS],
    });
    if (!verification.verified) throw new Error("not verified");
    credential = verification.registrationInfo.credential;
  } catch {
    return { ok: false, error: "The passkey answer does not match this shop." };
  }
  const database = await db();
  const existing = await listPasskeys(customerId);
  if (existing.length >= MAX_PASSKEYS)
    return { ok: false, error: `You can keep up to ${MAX_PASSKEYS} passkeys.` };
  const transports = (response.response.transports ?? [])
    .filter((value) => TRANSPORTS.has(value as AuthenticatorTransport))
    .join(",");
  await database
    .insert(customerPasskeys)
    .values({
      id: credential.id,
      customerId,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports,
    })
    .onConflictDoNothing();
  return { ok: true };
}

/** Options for `startAuthentication` (a discoverable passkey: no e-mail asked first). */
export async function authenticationOptions() {
  const rp = relyingParty();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CHALLENGE_MS,
    userVerification: "preferred",
  });
  const token = await keepChallenge(null, options.challenge);
  return { token, options };
}

/** Signs in with a passkey from `startAuthentication`'s answer. */
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
  const response = readResponse<AuthenticationResponseJSON>(input.body);
  if (!response) return refused;
  const database = await db();
  const [passkey] = await database
    .select({
      id: customerPasskeys.id,
      customerId: customerPasskeys.customerId,
      publicKey: customerPasskeys.publicKey,
      counter: customerPasskeys.counter,
      transports: customerPasskeys.transports,
    })
    .from(customerPasskeys)
    .where(eq(customerPasskeys.id, response.id));
  if (!passkey) return refused;
  let newCounter: number;
  try {
    // Checks the ceremony type, the challenge, the origin, the relying party's hash, user presence,
    // the signature, and a counter moving forward (both zero: an authenticator that keeps none).
    const verification = await verifyAuthenticationResponse({
      response,
      ...expectedAnswer(challenge),
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: readTransports(passkey.transports),
      },
    });
    if (!verification.verified) return refused;
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    return refused;
  }
  const sessionToken = await database.transaction(async (tx) => {
    const now = new Date();
    await tx
      .update(customerPasskeys)
      .set({ counter: newCounter, lastUsedAt: now })
      .where(eq(customerPasskeys.id, passkey.id));
    const [customer] = await tx
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(eq(customers.id, passkey.customerId));
    if (!customer) return null;
    await joinGuestOrders(tx, customer.id, customer.email);
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
