/**
 * Work done once a store day however many instances share the database (the low-stock digest, the
 * audit digest): when it falls due, and the claim of the day that exactly one caller wins.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { storeSettings } from "#app/db/schema.ts";
import { openingMinutes, weekday } from "#app/utils/store-time.ts";

/**
 * The minute of the store day a daily job is due at, or null when this instance runs none:
 * `off`, `opening` (the store's opening time that day) or a time as HH:MM.
 */
export function digestDueMinutes(setting: string, date: string): number | null {
  if (setting === "off") return null;
  if (setting === "opening") return openingMinutes(weekday(date));
  const [hours, minutes] = setting.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/**
 * Claims the store day `date` for the job recorded under `key` in `store_settings`: one statement,
 * so of several instances or concurrent runs exactly one gets true. Run it in the transaction that
 * does the day's work, so a failed run leaves the day unclaimed.
 */
export async function claimStoreDay(tx: Executor, key: string, date: string, now: Date) {
  const claimed = await tx
    .insert(storeSettings)
    .values({ key, value: { day: date }, updatedAt: now })
    .onConflictDoUpdate({
      target: storeSettings.key,
      set: { value: { day: date }, updatedAt: now },
      setWhere: sql`(${storeSettings.value} ->> 'day') < ${date}`,
    })
    .returning({ key: storeSettings.key });
  return claimed.length > 0;
}
