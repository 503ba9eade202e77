/**
 * Work done once a store day however many instances share the database (the low-stock digest, the
 * audit digest): when it falls due, and the claim of the day that exactly one caller wins.
 */
import { sql } from "drizzle-orm";
import { db, type Executor, type Transaction } from "#app/db/client.server.ts";
import { storeSettings } from "#app/db/schema.ts";
import { openingMinutes, storeClock, weekday } from "#app/utils/store-time.ts";

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

/** Why a daily job did nothing this call, whatever the job. */
export type NotToday = { sent: false; reason: "off" | "not-yet" | "already-decided"; day: string };

/**
 * A daily job's run, once a store day: from its due time (`setting`, see `digestDueMinutes`) on,
 * the first call of the store day claims the day under `key` and, in the same transaction, `work`
 * does the day's work (a failed run leaves the day unclaimed).
 */
export async function onceAStoreDay<Outcome extends { sent: boolean; day: string }>(
  job: { key: string; setting: string; now: Date },
  work: (tx: Transaction, date: string) => Promise<Outcome>,
): Promise<Outcome | NotToday> {
  const { date, minutes } = storeClock(job.now);
  const due = digestDueMinutes(job.setting, date);
  if (due === null) return { sent: false, reason: "off", day: date };
  if (minutes < due) return { sent: false, reason: "not-yet", day: date };
  const database = await db();
  return database.transaction(async (tx): Promise<Outcome | NotToday> => {
    if (!(await claimStoreDay(tx, job.key, date, job.now)))
      return { sent: false, reason: "already-decided", day: date };
    return work(tx, date);
  });
}
