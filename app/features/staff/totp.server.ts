/**
 * Time-based one-time codes (RFC 6238, P-27) with `otpauth`: 6 digits, 30-second steps,
 * one step of clock drift either way. The secret is sealed at rest with the ID-photo key ring
 * (AES-256-GCM, the user id bound as associated data) and a code's time step is accepted once:
 * `totp_last_step` only moves forward, in one UPDATE, so two requests with the same code cannot
 * both pass.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { Executor } from "#app/db/client.server.ts";
import { adminRecoveryCodes, adminUsers } from "#app/db/schema.ts";
import {
  decryptIdPhotoBytes,
  encryptIdPhotoBytes,
  type IdPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";

export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
const TOTP_WINDOW = 1;
const NONCE_BYTES = 12;
export const RECOVERY_CODE_COUNT = 10;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totp(secret: string, label = "staff", issuer = "Capital Grown") {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, account: string, issuer: string) {
  return totp(secret, account, issuer).toString();
}

/** The QR code of `uri` as an inline SVG (no script, no external image: the CSP allows it). */
export function qrCodeSvg(uri: string) {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}

/** The secret grouped by four for reading aloud or typing. */
export function groupedSecret(secret: string) {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

export function timeStep(now: Date) {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/** The time step `code` belongs to (within one step of `now`), or null for a wrong code. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : timeStep(now) + delta;
}

// --- Sealing with the ID-photo key ring -------------------------------------------------------

const sealLabel = (userId: string) => `totp-secret:${userId}`;

export function sealTotpSecret(keyring: IdPhotoKeyring, userId: string, secret: string) {
  const sealed = encryptIdPhotoBytes(keyring.current, sealLabel(userId), Buffer.from(secret, "utf8"));
  return { keyId: sealed.keyId, bytes: Buffer.concat([sealed.nonce, sealed.bytes]) };
}

export function unsealTotpSecret(
  keyring: IdPhotoKeyring,
  userId: string,
  stored: { keyId: string; bytes: Uint8Array },
): string {
  const key = keyring.find(stored.keyId);
  if (!key)
    throw new Error(
      `The second factor of ${userId} is sealed with key ${stored.keyId}, which this instance does not have`,
    );
  const bytes = Buffer.from(stored.bytes);
  const plain = decryptIdPhotoBytes(key, sealLabel(userId), {
    nonce: bytes.subarray(0, NONCE_BYTES),
    bytes: bytes.subarray(NONCE_BYTES),
  });
  return Buffer.from(plain).toString("utf8");
}

/**
 * Seals again under the key ring's current key every second factor sealed under an older key this
 * instance holds, so that retiring the old key (a rotation, record 014) locks nobody out. Returns
 * how many were moved and how many are under keys this instance does not have.
 */
export async function resealTotpSecrets(
  executor: Executor,
  keyring: IdPhotoKeyring,
): Promise<{ resealed: number; leftUnreadable: number }> {
  const stale = await executor
    .select({ id: adminUsers.id, sealed: adminUsers.totpSecretSealed, keyId: adminUsers.totpKeyId })
    .from(adminUsers)
    .where(ne(adminUsers.totpKeyId, keyring.current.id));
  let resealed = 0;
  let leftUnreadable = 0;
  for (const user of stale) {
    if (!user.sealed || !user.keyId || !keyring.find(user.keyId)) {
      leftUnreadable++;
      continue;
    }
    const secret = unsealTotpSecret(keyring, user.id, { keyId: user.keyId, bytes: user.sealed });
    const sealed = sealTotpSecret(keyring, user.id, secret);
    // Only if nobody enrolled again meanwhile (then the row holds another secret).
    const moved = await executor
      .update(adminUsers)
      .set({ totpSecretSealed: sealed.bytes, totpKeyId: sealed.keyId })
      .where(and(eq(adminUsers.id, user.id), eq(adminUsers.totpKeyId, user.keyId)))
      .returning({ id: adminUsers.id });
    resealed += moved.length;
  }
  return { resealed, leftUnreadable };
}

/** A pending (not yet confirmed) secret travels in the enrolment form sealed, never in plain text. */
export function sealPendingSecret(keyring: IdPhotoKeyring, userId: string, secret: string) {
  const sealed = sealTotpSecret(keyring, `pending:${userId}`, secret);
  return `${sealed.keyId}.${sealed.bytes.toString("base64url")}`;
}

export function unsealPendingSecret(keyring: IdPhotoKeyring, userId: string, value: string): string | null {
  const [keyId, bytes] = value.split(".");
  if (!keyId || !bytes) return null;
  try {
    return unsealTotpSecret(keyring, `pending:${userId}`, { keyId, bytes: Buffer.from(bytes, "base64url") });
  } catch {
    return null;
  }
}

// --- Checking a code --------------------------------------------------------------------------

export type CodeCheck = { ok: true; kind: "totp" | "recovery" } | { ok: false; reason: "wrong" | "replayed" };

/**
 * Accepts a current code whose step was not used before (moving `totp_last_step` forward in the
 * same statement), or an unused recovery code (marked used in the same statement).
 */
export async function checkSecondFactor(
  executor: Executor,
  keyring: IdPhotoKeyring,
  userId: string,
  input: string,
  now = new Date(),
): Promise<CodeCheck> {
  const code = input.replace(/[\s-]/g, "").toLowerCase();
  if (/^\d{6}$/.test(code)) {
    const [user] = await executor
      .select({ sealed: adminUsers.totpSecretSealed, keyId: adminUsers.totpKeyId })
      .from(adminUsers)
      .where(eq(adminUsers.id, userId));
    if (!user?.sealed || !user.keyId) return { ok: false, reason: "wrong" };
    const secret = unsealTotpSecret(keyring, userId, { keyId: user.keyId, bytes: user.sealed });
    const step = matchingStep(secret, code, now);
    if (step === null) return { ok: false, reason: "wrong" };
    const moved = await executor
      .update(adminUsers)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(adminUsers.id, userId),
          or(isNull(adminUsers.totpLastStep), lt(adminUsers.totpLastStep, step)),
        ),
      )
      .returning({ id: adminUsers.id });
    return moved.length === 1 ? { ok: true, kind: "totp" } : { ok: false, reason: "replayed" };
  }
  if (/^[a-z0-9]{10}$/.test(code)) {
    const used = await executor
      .update(adminRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(adminRecoveryCodes.userId, userId),
          eq(adminRecoveryCodes.codeHash, hashRecoveryCode(code)),
          isNull(adminRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: adminRecoveryCodes.id });
    return used.length === 1 ? { ok: true, kind: "recovery" } : { ok: false, reason: "wrong" };
  }
  return { ok: false, reason: "wrong" };
}

// --- Recovery codes ---------------------------------------------------------------------------

// No 0/o, 1/l/i: easy to read off paper.
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A code of 10 characters (about 49 bits), shown as `xxxxx-xxxxx`. */
export function newRecoveryCode() {
  const bytes = randomBytes(10);
  let code = "";
  for (const byte of bytes) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export function hashRecoveryCode(code: string) {
  return createHash("sha256").update(code.replace(/[\s-]/g, "").toLowerCase()).digest("hex");
}

/** Replaces the user's recovery codes with 10 new ones and returns them (shown once). */
export async function replaceRecoveryCodes(executor: Executor, userId: string, now = new Date()) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await executor.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, userId));
  await executor
    .insert(adminRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code), createdAt: now })));
  return codes;
}

export async function unusedRecoveryCodes(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.userId, userId), isNull(adminRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}
