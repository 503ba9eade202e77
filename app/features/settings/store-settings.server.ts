/**
 * The `store_settings` rows that staff change at /admin/settings (delivery, purchase limits): one
 * reader, and one writer that saves a value and records the change in the audit log in the same
 * transaction (P-27).
 */
import { eq } from "drizzle-orm";
import { db, type Executor } from "#app/db/client.server.ts";
import { storeSettings } from "#app/db/schema.ts";
import { type AuditBy, recordAuditBy } from "#app/features/audit/audit.server.ts";

/** The stored value of a setting (`undefined` when it was never saved): the caller parses it. */
export async function readStoreSetting(key: string, executor?: Executor): Promise<unknown> {
  const database = executor ?? (await db());
  const [row] = await database
    .select({ value: storeSettings.value })
    .from(storeSettings)
    .where(eq(storeSettings.key, key))
    .limit(1);
  return row?.value;
}

/** What a save of settings may be told: its time (now) and who made it, for the audit log. */
export type SettingsSaveOptions = { now?: Date; audit?: AuditBy };

/**
 * Saves a setting and records `action` with the value before and after. `before` reads the old
 * value in the transaction; `afterSave` runs in it too (e.g. to mark the catalogue changed).
 */
export async function saveStoreSetting<T>(
  key: string,
  value: T,
  {
    action,
    before,
    afterSave,
    now = new Date(),
    audit,
  }: {
    action: string;
    before: (tx: Executor) => Promise<T | null>;
    afterSave?: (tx: Executor, before: T | null) => Promise<void>;
    now?: Date;
    audit?: AuditBy;
  },
) {
  const database = await db();
  await database.transaction(async (tx) => {
    const old = await before(tx);
    await tx
      .insert(storeSettings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: storeSettings.key, set: { value, updatedAt: now } });
    await recordAuditBy(tx, audit, {
      action,
      targetType: "settings",
      targetId: key,
      details: { from: old, to: value },
    });
    await afterSave?.(tx, old);
  });
}
