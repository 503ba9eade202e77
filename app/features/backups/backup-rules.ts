/**
 * Pure rules for the daily backups (record 017): file names, which files to keep, when one is
 * due, and when the last one is too old.
 */

export const BACKUP_FILE_PREFIX = "capital-grown-";
export const BACKUP_FILE_SUFFIX = ".ndjson.gz";
export const KEEP_DAILY = 7;
export const KEEP_WEEKLY = 4;
export const STALE_AFTER_MS = 48 * 60 * 60 * 1000;

/** A backup file name that sorts by time: capital-grown-2026-11-23T03-30-00-000Z.ndjson.gz */
export function backupFileName(at: Date) {
  return `${BACKUP_FILE_PREFIX}${at.toISOString().replace(/[:.]/g, "-")}${BACKUP_FILE_SUFFIX}`;
}

/** The time a backup file name holds, or null for any other file. */
export function backupFileTime(name: string): Date | null {
  const match = /^capital-grown-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.ndjson\.gz$/.exec(name);
  if (!match) return null;
  const at = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function localDay(at: Date, timeZone: string) {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
}

function localMinutes(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const hour = Number(parts.find((part) => part.type === "hour")?.value);
  const minute = Number(parts.find((part) => part.type === "minute")?.value);
  return hour * 60 + minute;
}

/** ISO week key (e.g. 2026-W48) of a local calendar day. */
function weekKey(day: string) {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
  date.setUTCDate(date.getUTCDate() - weekday + 3); // Thursday of the same week
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = 1 + Math.floor((date.getTime() - yearStart) / (7 * 86_400_000));
  return `${date.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/**
 * Which backups to keep: the newest of each of the 7 newest days that have one (store-local
 * calendar), then the newest of each of the 4 newest older weeks (weeks holding none of those days). Returns the names
 * to delete; files that are not backups are never touched.
 */
export function backupsToDelete(names: string[], timeZone: string): string[] {
  const dated = names
    .map((name) => ({ name, at: backupFileTime(name) }))
    .filter((entry): entry is { name: string; at: Date } => entry.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const keep = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  const dailyWeeks = new Set<string>();
  for (const entry of dated) {
    const day = localDay(entry.at, timeZone);
    if (days.has(day)) continue;
    days.add(day);
    const week = weekKey(day);
    if (days.size <= KEEP_DAILY) {
      dailyWeeks.add(week);
      keep.add(entry.name);
      continue;
    }
    if (dailyWeeks.has(week) || weeks.has(week) || weeks.size >= KEEP_WEEKLY) continue;
    weeks.add(week);
    keep.add(entry.name);
  }
  return dated.filter((entry) => !keep.has(entry.name)).map((entry) => entry.name);
}

/** A daily backup is due once the store-local time has passed `time` and today has none yet. */
export function dailyBackupDue(options: {
  now: Date;
  time: string;
  timeZone: string;
  lastBackupAt: Date | null;
}) {
  const [hour, minute] = options.time.split(":").map(Number) as [number, number];
  if (localMinutes(options.now, options.timeZone) < hour * 60 + minute) return false;
  if (!options.lastBackupAt) return true;
  const today = localDay(options.now, options.timeZone);
  if (localDay(options.lastBackupAt, options.timeZone) !== today) return true;
  return localMinutes(options.lastBackupAt, options.timeZone) < hour * 60 + minute;
}

/** The dashboard's warning: none yet, or the last one older than 48 hours. */
export function backupIsStale(lastBackupAt: Date | null, now: Date) {
  return lastBackupAt === null || now.getTime() - lastBackupAt.getTime() > STALE_AFTER_MS;
}
