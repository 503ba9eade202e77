/**
 * `npm run db:backup -- [file]`: a consistent backup of the configured database (PGlite or
 * PostgreSQL). While a server owns the embedded database, the server writes it (record 017).
 */
import { existsSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { DataDirLockedError } from "../app/db/data-dir-lock.server.ts";
import { backupFileName } from "../app/features/backups/backup-rules.ts";
import { backupDir, backupSocketPath, writeBackup } from "../app/features/backups/backup-service.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

type Written = {
  file: string;
  bytes: number;
  rows: number;
  auditChain?: { lastId: string; lastHash: string };
};

/** Asks the running server over its socket in DATA_DIR; null when no server answers there. */
function askRunningServer(socketPath: string, file: string): Promise<Written | null> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ file });
    const call = request(
      { socketPath, path: "/backup", method: "POST", headers: { "content-type": "application/json" } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          const value = JSON.parse(text);
          if (response.statusCode === 200) resolve(value as Written);
          else reject(new Error(`the running server could not write it: ${value.error}`));
        });
      },
    );
    call.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(null);
      else reject(error);
    });
    call.end(body);
  });
}

try {
  const { dataDir, DATABASE_URL } = config();
  makeDataDirPrivate(dataDir);
  const file = path.resolve(process.argv[2] ?? path.join(backupDir(), backupFileName(new Date())));
  let written: Written | null = null;
  let where = "";
  const socket = backupSocketPath(dataDir);
  if (!DATABASE_URL && existsSync(socket)) {
    written = await askRunningServer(socket, file);
    where = "the running server's embedded database";
  }
  if (!written) {
    try {
      const handle = await openConfiguredDatabase("npm run db:backup");
      try {
        written = await writeBackup(handle.db, file);
        where = handle.description;
      } finally {
        await handle.close();
      }
    } catch (error) {
      // The server started between our look at the socket and the lock: ask it after all.
      if (!(error instanceof DataDirLockedError) || !existsSync(socket)) throw error;
      written = await askRunningServer(socket, file);
      if (!written) throw error;
      where = "the running server's embedded database";
    }
  }
  console.log(`Backed up ${written.rows} rows of ${where} to ${written.file} (${written.bytes} bytes)`);
  if (written.auditChain) {
    // Kept outside the database, it shows a later rewrite of the audit log (record 036).
    console.log(`Audit chain: last event ${written.auditChain.lastId}, hash ${written.auditChain.lastHash}`);
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Backup failed: ${rootCauseMessage(error)}`);
  process.exit(1);
}
