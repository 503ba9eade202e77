/**
 * `npm run db:function-migration -- <name> [<name>…] [--name <migration name>] [--write-path "<what changes>"]`
 *
 * Writes a new migration from the current files of SQL functions and triggers: edit
 * `drizzle/functions/<name>.sql` (or `drizzle/triggers/<name>.sql`) first, then run this with the
 * names you changed. It asks drizzle-kit for an empty custom migration (so the journal and snapshot
 * stay drizzle-kit's own) and fills it with each file's text, one statement each. A name that is both
 * a function and a trigger is given as `function:<name>` or `trigger:<name>`.
 *
 * `--write-path` puts the rolling-upgrade marker (record 038) on the first line: use it when the change
 * alters how the shop writes, so it waits for older instances to stop.
 *
 * A change of a function's arguments or result type cannot be made by CREATE OR REPLACE: add the
 * `DROP FUNCTION "<name>"(<old argument types>);--> statement-breakpoint` line above it by hand.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFINITION_KINDS, DRIZZLE_FOLDER, definitionFiles, migrationFiles } from "./sql-definitions.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { name: { type: "string" }, "write-path": { type: "string" } },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (positionals.length === 0) {
  fail(
    'Usage: npm run db:function-migration -- <name> [<name>…] [--name <migration name>] [--write-path "<what changes>"]',
  );
}

const files = definitionFiles();
const chosen = positionals.map((given) => {
  const [prefix, rest] = given.includes(":") ? given.split(":", 2) : [null, given];
  const kinds = prefix ? DEFINITION_KINDS.filter((kind) => kind === prefix) : DEFINITION_KINDS;
  const found = kinds.flatMap((kind) => {
    const file = files.get(`${kind}:${rest}`);
    return file ? [{ kind, name: rest as string, ...file }] : [];
  });
  if (found.length === 0) fail(`No drizzle/functions/${rest}.sql or drizzle/triggers/${rest}.sql.`);
  if (found.length > 1)
    fail(`${rest} is both a function and a trigger: write function:${rest} or trigger:${rest}.`);
  return found[0] as NonNullable<(typeof found)[number]>;
});

const migrationName = values.name ?? chosen.map((definition) => definition.name).join("_and_");
const before = migrationFiles().length;
execFileSync(
  path.resolve(import.meta.dirname, "../node_modules/.bin/drizzle-kit"),
  ["generate", "--custom", "--name", migrationName],
  { stdio: "inherit", cwd: path.resolve(import.meta.dirname, "..") },
);
const after = migrationFiles();
if (after.length !== before + 1) fail("drizzle-kit did not add a migration.");
const migration = path.join(DRIZZLE_FOLDER, after[after.length - 1] as string);

const header = [
  ...(values["write-path"] ? [`-- write-path: ${values["write-path"]}`] : []),
  `-- ${chosen.map((definition) => `${definition.kind} ${definition.name}`).join(", ")}: the current text of`,
  `-- ${chosen.map((definition) => path.relative(path.dirname(DRIZZLE_FOLDER), definition.file)).join(", ")}.`,
];
const statements = chosen.map((definition) => readFileSync(definition.file, "utf8").trim());
// drizzle-kit's placeholder line is replaced: the migration holds only the header and the statements.
writeFileSync(migration, `${header.join("\n")}\n${statements.join("\n--> statement-breakpoint\n")}\n`);
console.log(`Wrote ${path.relative(process.cwd(), migration)}`);
