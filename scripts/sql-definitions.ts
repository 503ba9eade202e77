/**
 * The shop's SQL functions and triggers have one current text each, in `drizzle/functions/<name>.sql`
 * and `drizzle/triggers/<name>.sql`. Migrations still carry the definitions (the migrator runs only
 * drizzle/*.sql in the journal's order), so these helpers find, for every function and trigger, the
 * statement of the newest migration that creates or drops it; `tests/architecture/sql-definitions.test.ts`
 * compares that statement with the file, and `npm run db:function-migration` writes a migration
 * from the files.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const DRIZZLE_FOLDER = path.resolve(import.meta.dirname, "../drizzle");
export const DEFINITION_KINDS = ["function", "trigger"] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

/** The folder that holds the current text of each kind (`drizzle/functions`, `drizzle/triggers`). */
export function definitionFolder(kind: DefinitionKind, drizzleFolder = DRIZZLE_FOLDER) {
  return path.join(drizzleFolder, `${kind}s`);
}

export type MigrationDefinition = {
  kind: DefinitionKind;
  name: string;
  /** The migration file that last created it (or dropped it: then `statement` is null). */
  migration: string;
  statement: string | null;
};

/** The migrations in the order the migrator runs them (the journal's). */
export function migrationFiles(drizzleFolder = DRIZZLE_FOLDER): string[] {
  const journal = JSON.parse(readFileSync(path.join(drizzleFolder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => `${entry.tag}.sql`);
}

/** Statements as the migrator sends them: split at drizzle-kit's breakpoint marker. */
export function migrationStatements(text: string): string[] {
  return text
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter((statement) => stripSqlComments(statement).trim() !== "");
}

const CREATE = /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(FUNCTION|TRIGGER)\s+"?([a-z_][a-z0-9_]*)"?/i;
const DROP = /^\s*DROP\s+(FUNCTION|TRIGGER)\s+(?:IF\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)"?/i;

/** What one statement creates or drops, if it is a function or trigger definition. */
export function definitionOf(
  statement: string,
): { action: "create" | "drop"; kind: DefinitionKind; name: string } | null {
  const code = stripSqlComments(statement);
  const created = CREATE.exec(code);
  if (created)
    return { action: "create", kind: kindOf(created[1]), name: (created[2] as string).toLowerCase() };
  const dropped = DROP.exec(code);
  if (dropped)
    return { action: "drop", kind: kindOf(dropped[1]), name: (dropped[2] as string).toLowerCase() };
  return null;
}

function kindOf(word: string | undefined): DefinitionKind {
  return word?.toLowerCase() === "trigger" ? "trigger" : "function";
}

/** For each function and trigger, the last migration statement that creates or drops it. */
export function latestDefinitions(drizzleFolder = DRIZZLE_FOLDER): Map<string, MigrationDefinition> {
  const latest = new Map<string, MigrationDefinition>();
  for (const migration of migrationFiles(drizzleFolder)) {
    const text = readFileSync(path.join(drizzleFolder, migration), "utf8");
    for (const statement of migrationStatements(text)) {
      const found = definitionOf(statement);
      if (!found) continue;
      latest.set(`${found.kind}:${found.name}`, {
        kind: found.kind,
        name: found.name,
        migration,
        statement: found.action === "create" ? statement : null,
      });
    }
  }
  return latest;
}

/** The current files: `drizzle/functions/*.sql` and `drizzle/triggers/*.sql`, by kind and name. */
export function definitionFiles(drizzleFolder = DRIZZLE_FOLDER): Map<string, { file: string; text: string }> {
  const files = new Map<string, { file: string; text: string }>();
  for (const kind of DEFINITION_KINDS) {
    const folder = definitionFolder(kind, drizzleFolder);
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith(".sql"));
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(folder, name);
      files.set(`${kind}:${name.slice(0, -4)}`, { file, text: readFileSync(file, "utf8") });
    }
  }
  return files;
}

/**
 * SQL with its comments taken out: `--` to the end of the line and `/* … *\/`, outside quoted text
 * ('…' strings, "…" names). A function body between `$$` is code too, so its comments go as well.
 */
export function stripSqlComments(sqlText: string): string {
  let out = "";
  let index = 0;
  while (index < sqlText.length) {
    const char = sqlText[index] as string;
    const next = sqlText[index + 1];
    if (char === "'" || char === '"') {
      const end = closingQuote(sqlText, index, char);
      out += sqlText.slice(index, end);
      index = end;
    } else if (char === "-" && next === "-") {
      const end = sqlText.indexOf("\n", index);
      index = end === -1 ? sqlText.length : end;
    } else if (char === "/" && next === "*") {
      const end = sqlText.indexOf("*/", index + 2);
      index = end === -1 ? sqlText.length : end + 2;
      out += " ";
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/** The index just after the quote that closes the one at `start` (a doubled quote is part of the text). */
function closingQuote(text: string, start: number, quote: string) {
  let index = start + 1;
  while (index < text.length) {
    if (text[index] === quote) {
      if (text[index + 1] === quote) index += 2;
      else return index + 1;
    } else index += 1;
  }
  return text.length;
}

/**
 * A definition as the comparison sees it: no comments, whitespace runs as one space (none next to
 * brackets, commas and semicolons), `CREATE FUNCTION` and `CREATE OR REPLACE FUNCTION` alike, the
 * name unquoted, no trailing semicolon. What is left is what PostgreSQL runs.
 */
export function normaliseDefinition(sqlText: string): string {
  return stripSqlComments(sqlText)
    .replace(/\s+/g, " ")
    .replace(/\s*([(),;])\s*/g, "$1")
    .trim()
    .replace(/;$/, "")
    .replace(
      /^CREATE\s+(?:OR\s+REPLACE\s+)?(FUNCTION|TRIGGER)\s+"?([a-z_][a-z0-9_]*)"?/i,
      (_all, kind, name) => `CREATE OR REPLACE ${String(kind).toUpperCase()} ${String(name).toLowerCase()}`,
    );
}

/**
 * Where the files and the migrations disagree, one sentence each: a definition whose newest migration
 * differs from its file, one with no file, and a file that no migration defines (or that the last
 * migration to name it dropped). Empty when they agree.
 */
export function definitionDrift(drizzleFolder = DRIZZLE_FOLDER): string[] {
  const problems: string[] = [];
  const latest = latestDefinitions(drizzleFolder);
  const files = definitionFiles(drizzleFolder);
  const where = (kind: DefinitionKind, name: string) =>
    path.relative(
      path.dirname(drizzleFolder),
      path.join(definitionFolder(kind, drizzleFolder), `${name}.sql`),
    );
  for (const [key, definition] of latest) {
    const file = files.get(key);
    const current = where(definition.kind, definition.name);
    if (definition.statement === null) {
      if (file)
        problems.push(`${current}: ${definition.migration} drops ${definition.name}; delete the file.`);
      continue;
    }
    if (!file) {
      problems.push(
        `${current} is missing: ${definition.migration} defines ${definition.kind} ${definition.name}.`,
      );
    } else if (normaliseDefinition(file.text) !== normaliseDefinition(definition.statement)) {
      problems.push(
        `${current} differs from its newest migration, ${definition.migration}: write a migration with its text (npm run db:function-migration -- ${definition.name}).`,
      );
    }
  }
  for (const key of files.keys()) {
    if (latest.has(key)) continue;
    const [kind, name] = key.split(":") as [DefinitionKind, string];
    problems.push(
      `${where(kind, name)}: no migration defines ${kind} ${name} (npm run db:function-migration -- ${name}).`,
    );
  }
  return problems;
}
