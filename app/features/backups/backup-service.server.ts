/**
 * Backups while the shop is open (record 017): the running server, which owns the database,
 * writes backups on request (a unix socket inside the private data folder) and once a day by
 * itself; each backup is then read back and checked by the live database (verifyBackup, record 040).
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { z } from "zod";
import { backupDatabase, checkBackupFile } from "#app/db/backup.server.ts";
import type { Database, DatabaseHandle } from "#app/db/client.server.ts";
import { config } from "#app/utils/env.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { startPeriodicJob } from "#app/utils/periodic-job.server.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { backupFileName, backupFileTime, backupsToDelete, dailyBackupDue } from "./backup-rules.ts";

export const BACKUP_SOCKET_NAME = "backup.sock";
const STATUS_FILE = "last-backup.json";

export function backupDir() {
  const { BACKUP_DIR, dataDir } = config();
  return path.resolve(BACKUP_DIR ?? path.join(dataDir, "backups"));
}

export function backupSocketPath(dataDir = config().dataDir) {
  return path.join(dataDir, BACKUP_SOCKET_NAME);
}

export type BackupResult = {
  file: string;
  bytes: number;
  rows: number;
  counts: Record<string, number>;
  /** The audit chain's last event in the backup (also in its header, record 036). */
  auditChain?: { lastId: string; lastHash: string };
};

/**
 * Writes a backup to `file`; on any failure the partial file, and a folder this call created, are
 * removed, so a failed backup leaves nothing behind.
 */
export async function writeBackup(db: Database, file: string): Promise<BackupResult> {
  const folder = path.dirname(file);
  const madeFolder = existsSync(folder) ? null : mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    const { counts, auditChain } = await backupDatabase(db, file);
    const rows = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return { file, bytes: statSync(file).size, rows, counts, ...(auditChain ? { auditChain } : {}) };
  } catch (error) {
    rmSync(file, { force: true });
    if (madeFolder) rmSync(madeFolder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Checks a backup just written: read back as a stream, every row converted to its table's row type
 * by the live database (nothing written), and every table's row count compared with what was
 * written and with the file's header. Restoring it into a throwaway database instead held a second
 * PGlite and, in memory, every row of the shop (ID photos included): a 1.5 GB peak every night.
 */
export async function verifyBackup(db: Database, file: string, expected: Record<string, number>) {
  const { header, found } = await checkBackupFile(db, file);
  const wrong = Object.entries(expected).filter(
    ([table, count]) => (found[table] ?? 0) !== count || header.tables[table] !== count,
  );
  if (wrong.length > 0) {
    throw new Error(
      `restored row counts differ: ${wrong.map(([table, count]) => `${table} ${found[table] ?? 0} of ${count}`).join(", ")}`,
    );
  }
}

export type BackupStatus = {
  at: string;
  file: string;
  bytes: number;
  rows: number;
  verified: boolean;
  error?: string;
  auditChain?: { lastId: string; lastHash: string };
};

const statusSchema = z.object({
  at: z.string(),
  file: z.string(),
  bytes: z.number(),
  rows: z.number(),
  verified: z.boolean(),
  error: z.string().optional(),
  auditChain: z.object({ lastId: z.string(), lastHash: z.string() }).optional(),
});

/** The last backup's record (written next to the backups), or null when none was ever written. */
export function lastBackupStatus(folder = backupDir()): BackupStatus | null {
  try {
    return statusSchema.parse(JSON.parse(readFileSync(path.join(folder, STATUS_FILE), "utf8")));
  } catch {
    return null;
  }
}

function recordStatus(folder: string, status: BackupStatus) {
  writeFileSync(path.join(folder, STATUS_FILE), JSON.stringify(status), { mode: 0o600 });
}

/** Writes, checks and records one backup into `folder`, then prunes old ones (7 daily, 4 weekly). */
export async function runScheduledBackup(db: Database, folder = backupDir(), now = new Date()) {
  const result = await writeBackup(db, path.join(folder, backupFileName(now)));
  let error: string | undefined;
  try {
    await verifyBackup(db, result.file, result.counts);
  } catch (failure) {
    error = `The backup check failed: ${errorMessage(failure)}`;
    log.error("The daily backup's restore check failed", { file: result.file, error: errorMessage(failure) });
  }
  recordStatus(folder, {
    at: now.toISOString(),
    file: path.basename(result.file),
    bytes: result.bytes,
    rows: result.rows,
    verified: !error,
    ...(error ? { error } : {}),
    ...(result.auditChain ? { auditChain: result.auditChain } : {}),
  });
  for (const name of backupsToDelete(readdirSync(folder), STORE_TIME_ZONE)) {
    rmSync(path.join(folder, name), { force: true });
  }
  return { ...result, verified: !error };
}

function newestBackupTime(folder: string) {
  if (!existsSync(folder)) return null;
  const times = readdirSync(folder)
    .map(backupFileTime)
    .filter((at): at is Date => at !== null);
  return times.length ? new Date(Math.max(...times.map((at) => at.getTime()))) : null;
}

/**
 * Checks every minute whether today's backup is due. Each instance writes its own into its own
 * BACKUP_DIR: with several instances on one PostgreSQL, set BACKUP_TIME=off on all but one
 * (docs/deployment.md). BACKUP_TIME=off: no daily backup from this instance.
 */
export function startDailyBackupJob(handle: DatabaseHandle, options: { intervalMs?: number } = {}) {
  if (config().BACKUP_TIME === "off") return () => {};
  return startPeriodicJob(
    async () => {
      const folder = backupDir();
      const now = new Date();
      if (
        !dailyBackupDue({
          now,
          time: config().BACKUP_TIME,
          timeZone: STORE_TIME_ZONE,
          lastBackupAt: lastWrite(folder),
        })
      )
        return;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const result = await runScheduledBackup(handle.db, folder, now);
      log.info(`Daily backup written: ${result.file} (${result.bytes} bytes, ${result.rows} rows)`, {
        auditChain: result.auditChain,
      });
    },
    { intervalMs: options.intervalMs ?? 60_000, failure: "The daily backup failed" },
  );
}

function lastWrite(folder: string) {
  const status = lastBackupStatus(folder);
  const fromStatus = status ? new Date(status.at) : null;
  const fromFiles = newestBackupTime(folder);
  if (!fromStatus) return fromFiles;
  if (!fromFiles) return fromStatus;
  return fromStatus > fromFiles ? fromStatus : fromFiles;
}

const requestSchema = z.object({
  file: z
    .string()
    .min(1)
    .refine((file) => path.isAbsolute(file)),
});

/**
 * The channel `npm run db:backup` uses while this server owns the embedded database: HTTP over a
 * unix socket inside DATA_DIR (a folder only the shop's user can open; the socket is 0600), so
 * only that user reaches it and nothing listens on the network.
 */
export async function startBackupSocket(
  handle: DatabaseHandle,
  dataDir = config().dataDir,
): Promise<() => Promise<void>> {
  const socket = backupSocketPath(dataDir);
  if (existsSync(socket)) unlinkSync(socket); // left by a process that was killed; we hold the data lock
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) request.destroy();
    });
    request.on("end", async () => {
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (request.method !== "POST" || request.url !== "/backup") return reply(404, { error: "not found" });
      try {
        const { file } = requestSchema.parse(JSON.parse(body));
        const result = await writeBackup(handle.db, file);
        reply(200, result);
      } catch (error) {
        reply(500, { error: errorMessage(error) });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, resolve);
  });
  const { chmodSync } = await import("node:fs");
  chmodSync(socket, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
