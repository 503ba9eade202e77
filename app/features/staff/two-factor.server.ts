/**
 * Who must use a second factor (P-27: owners and managers always, drivers when the owner
 * requires it), enrolment, and its reset by an owner or `npm run admin:reset-2fa`.
 */
import { eq, sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminRecoveryCodes, adminUsers, type StaffRole, storeSettings } from "#app/db/schema.ts";
import { type AuditActor, type AuditOrigin, recordAudit } from "#app/features/audit/audit.server.ts";
import type { IdPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { endSessionsOf } from "./sessions.server.ts";
import { matchingStep, replaceRecoveryCodes, sealTotpSecret } from "./totp.server.ts";

/** store_settings key: whether drivers must set up a second factor too. */
export const DRIVERS_REQUIRE_TWO_FACTOR = "staff.drivers-require-two-factor";

export async function driversRequireTwoFactor(executor: Executor) {
  const [row] = await executor
    .select({ value: storeSettings.value })
    .from(storeSettings)
    .where(eq(storeSettings.key, DRIVERS_REQUIRE_TWO_FACTOR));
  return row?.value === true;
}

export async function setDriversRequireTwoFactor(
  executor: Executor,
  required: boolean,
  actor: AuditActor,
  origin: AuditOrigin,
) {
  await executor.transaction(async (tx) => {
    const before = await driversRequireTwoFactor(tx);
    await tx
      .insert(storeSettings)
      .values({ key: DRIVERS_REQUIRE_TWO_FACTOR, value: sql`${JSON.stringify(required)}::jsonb` })
      .onConflictDoUpdate({
        target: storeSettings.key,
        set: { value: sql`${JSON.stringify(required)}::jsonb`, updatedAt: new Date() },
      });
    if (before !== required) {
      await recordAudit(tx, actor, origin, {
        action: "settings.drivers_two_factor",
        targetType: "setting",
        targetId: DRIVERS_REQUIRE_TWO_FACTOR,
        details: { old: before, new: required },
      });
    }
  });
}

/** Whether this role must have a second factor before it can open anything. */
export async function roleRequiresTwoFactor(executor: Executor, role: StaffRole) {
  if (role === "owner" || role === "manager") return true;
  return driversRequireTwoFactor(executor);
}

/** Whether an account must set up its second factor before anything else opens (P-27). */
export async function mustEnrolFirst(executor: Executor, account: { twoFactor: boolean; role: StaffRole }) {
  return !account.twoFactor && (await roleRequiresTwoFactor(executor, account.role));
}

export type EnrolResult = { ok: true; recoveryCodes: string[] } | { ok: false };

/**
 * Makes `secret` the user's second factor once `code` proves their app has it: the code's step
 * counts as used, the old recovery codes are replaced by 10 new ones (returned to show once).
 */
export async function confirmEnrolment(
  executor: Executor,
  keyring: IdPhotoKeyring,
  input: { userId: string; secret: string; code: string; actor: AuditActor; origin: AuditOrigin; now?: Date },
): Promise<EnrolResult> {
  const now = input.now ?? new Date();
  const step = matchingStep(input.secret, input.code.replace(/\s/g, ""), now);
  if (step === null) return { ok: false };
  const sealed = sealTotpSecret(keyring, input.userId, input.secret);
  return executor.transaction(async (tx) => {
    const [before] = await tx
      .update(adminUsers)
      .set({
        totpSecretSealed: sealed.bytes,
        totpKeyId: sealed.keyId,
        totpEnabledAt: now,
        totpLastStep: step,
        updatedAt: now,
      })
      .where(eq(adminUsers.id, input.userId))
      .returning({ id: adminUsers.id, email: adminUsers.email });
    if (!before) return { ok: false } as const;
    const recoveryCodes = await replaceRecoveryCodes(tx, input.userId, now);
    await recordAudit(tx, input.actor, input.origin, {
      action: "two_factor.enrolled",
      targetType: "staff",
      targetId: input.userId,
      details: { email: before.email },
    });
    return { ok: true, recoveryCodes } as const;
  });
}

/** New recovery codes (the old ones stop working). */
export async function regenerateRecoveryCodes(
  executor: Executor,
  input: { userId: string; actor: AuditActor; origin: AuditOrigin },
) {
  return executor.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, input.userId);
    await recordAudit(tx, input.actor, input.origin, {
      action: "two_factor.recovery_codes_regenerated",
      targetType: "staff",
      targetId: input.userId,
    });
    return codes;
  });
}

/**
 * Clears a member's second factor and recovery codes (they enrol again at their next sign-in) and
 * ends every session of theirs but `keepSession` (their own, when they turn it off themselves).
 * Runs inside the caller's transaction when given one.
 */
export async function resetTwoFactor(
  executor: Executor,
  input: { userId: string; actor: AuditActor; origin: AuditOrigin; keepSession?: { tokenHash: string } },
) {
  return executor.transaction(async (tx) => {
    const [user] = await tx
      .update(adminUsers)
      .set({
        totpSecretSealed: null,
        totpKeyId: null,
        totpEnabledAt: null,
        totpLastStep: null,
        updatedAt: new Date(),
      })
      .where(eq(adminUsers.id, input.userId))
      .returning({ id: adminUsers.id, email: adminUsers.email });
    if (!user) return false;
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.userId, input.userId));
    const sessionsEnded = await endSessionsOf(tx, input.userId, input.keepSession);
    await recordAudit(tx, input.actor, input.origin, {
      action: "two_factor.reset",
      targetType: "staff",
      targetId: input.userId,
      details: { email: user.email, sessionsEnded },
    });
    return true;
  });
}
