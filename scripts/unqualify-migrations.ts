/**
 * drizzle-kit writes `"public"."table"` into foreign keys. Tests give each file its own schema
 * (search_path), so migrations must name tables without a schema.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const folder = path.resolve(import.meta.dirname, "../drizzle");
for (const name of readdirSync(folder).filter((file) => file.endsWith(".sql"))) {
  const file = path.join(folder, name);
  const before = readFileSync(file, "utf8");
  const after = before.replaceAll('"public".', "");
  if (after !== before) writeFileSync(file, after);
}
