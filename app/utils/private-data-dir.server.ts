import { chmodSync, existsSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** Files this process creates are readable by its own user only (folders 0700, files 0600). */
export const PRIVATE_UMASK = 0o077;

/**
 * DATA_DIR holds the embedded database, the ID photo key, e-mails and backups: nobody but the
 * shop's own user may read it. Sets the umask for what this process creates from now on, and
 * takes group and other permissions off what an older version (or another tool) left there.
 * Returns how many entries it changed.
 */
export function makeDataDirPrivate(dataDir: string): number {
  process.umask(PRIVATE_UMASK);
  if (!existsSync(dataDir)) return 0;
  let changed = 0;
  const visit = (entry: string) => {
    const stat = lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) {
      chmodSync(entry, stat.mode & 0o700);
      changed++;
    }
    if (stat.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dataDir);
  return changed;
}
