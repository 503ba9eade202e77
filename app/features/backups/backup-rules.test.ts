import { describe, expect, it } from "vitest";
import {
  backupFileName,
  backupFileTime,
  backupIsStale,
  backupsToDelete,
  dailyBackupDue,
} from "./backup-rules.ts";

const TZ = "America/New_York";
const DAY = 86_400_000;

describe("backup retention", () => {
  it("keeps the newest of each of the last 7 days and of each of 4 older weeks", () => {
    const newest = Date.parse("2026-11-23T08:30:00Z"); // 03:30 in New York
    // 60 daily backups, plus a second one on the newest day.
    const names = Array.from({ length: 60 }, (_, day) => backupFileName(new Date(newest - day * DAY)));
    names.push(backupFileName(new Date(newest - 3_600_000)));
    names.push("notes.txt");
    const deleted = new Set(backupsToDelete(names, TZ));
    const kept = names.filter((name) => !deleted.has(name) && name !== "notes.txt");
    expect(deleted.has("notes.txt")).toBe(false);
    expect(kept).toHaveLength(11);
    const keptTimes = kept.map((name) => backupFileTime(name)?.getTime() as number).sort((a, b) => b - a);
    // The 7 newest days, each its newest backup.
    expect(keptTimes.slice(0, 7)).toEqual(Array.from({ length: 7 }, (_, day) => newest - day * DAY));
    // Then one per week, each older than the dailies and at least a week apart.
    const weekly = keptTimes.slice(7);
    expect(weekly.every((at) => at < newest - 6 * DAY)).toBe(true);
    for (let i = 1; i < weekly.length; i++)
      expect((weekly[i - 1] as number) - (weekly[i] as number)).toBe(7 * DAY);
    expect(deleted.has(backupFileName(new Date(newest - 3_600_000)))).toBe(true);
  });

  it("deletes nothing while there are fewer than 7 days", () => {
    const names = [0, 1, 2].map((day) =>
      backupFileName(new Date(Date.parse("2026-11-20T12:00:00Z") - day * DAY)),
    );
    expect(backupsToDelete(names, TZ)).toEqual([]);
  });
});

describe("daily backup time", () => {
  it("is due after BACKUP_TIME in the store time zone, once a day", () => {
    const before = new Date("2026-11-23T08:00:00Z"); // 03:00 New York
    const after = new Date("2026-11-23T08:31:00Z"); // 03:31 New York
    expect(dailyBackupDue({ now: before, time: "03:30", timeZone: TZ, lastBackupAt: null })).toBe(false);
    expect(dailyBackupDue({ now: after, time: "03:30", timeZone: TZ, lastBackupAt: null })).toBe(true);
    const yesterday = new Date(after.getTime() - DAY);
    expect(dailyBackupDue({ now: after, time: "03:30", timeZone: TZ, lastBackupAt: yesterday })).toBe(true);
    expect(dailyBackupDue({ now: after, time: "03:30", timeZone: TZ, lastBackupAt: after })).toBe(false);
  });
});

describe("stale backup warning", () => {
  it("warns when there is none, or the last is older than 48 hours", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    expect(backupIsStale(null, now)).toBe(true);
    expect(backupIsStale(new Date(now.getTime() - 47 * 3_600_000), now)).toBe(false);
    expect(backupIsStale(new Date(now.getTime() - 49 * 3_600_000), now)).toBe(true);
  });
});
