/** `npm run db:backup -- [file]`: a consistent backup of the configured database (PGlite or PostgreSQL). */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { backupDatabase } from "../app/db/backup.server.ts";
import { openConfiguredDatabase } from "../app/db/client.server.ts";
import { ConfigError, config } from "../app/utils/env.server.ts";
import { rootCauseMessage } from "../app/utils/logger.server.ts";
import { makeDataDirPrivate } from "../app/utils/private-data-dir.server.ts";

try {
  makeDataDirPrivate(config().dataDir);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.resolve(
    process.argv[2] ?? path.join(config().dataDir, "backups", `capital-grown-${stamp}.ndjson.gz`),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  const handle = await openConfiguredDatabase("npm run db:backup");
  try {
    const { counts, plaintextIdPhotos } = await backupDatabase(handle.db, file);
    const rows = Object.values(counts).reduce((sum, count) => sum + count, 0);
    console.log(`Backed up ${rows} rows of ${handle.description} to ${file}`);
    if (plaintextIdPhotos > 0) {
      console.warn(
        `${plaintextIdPhotos} ID photos stored before encryption were not encrypted yet (the server encrypts them when it starts): this backup holds them in the clear`,
      );
    }
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Backup failed: ${rootCauseMessage(error)}`);
  process.exit(1);
}
