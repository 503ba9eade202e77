/**
 * One current text per SQL function and trigger (`drizzle/functions/`, `drizzle/triggers/`): the
 * newest migration that defines each must say the same, so a changed function comes with a
 * migration. The codes and the stock threshold that SQL and TypeScript share are checked here too.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SQL_REFUSALS } from "#app/db/sql-refusals.ts";
import { EXACT_STOCK_UP_TO } from "#app/features/catalog/catalog.ts";
import { tempFolders } from "#tests/support/temp-folders.ts";
import {
  DRIZZLE_FOLDER,
  definitionDrift,
  definitionFiles,
  normaliseDefinition,
  stripSqlComments,
} from "../../scripts/sql-definitions.ts";

const makeTempFolder = tempFolders("sql-definitions-");

describe("SQL functions and triggers: one current file each", () => {
  test("each file says what the newest migration defining it says, and each definition has a file", () => {
    expect(definitionDrift()).toEqual([]);
    expect(definitionFiles().size).toBeGreaterThan(20);
  });

  test("a changed function body, a file no migration defines and a missing file are each named", () => {
    const folder = copyOfDrizzle();
    const placeOrder = path.join(folder, "functions/place_order.sql");
    writeFileSync(
      placeOrder,
      readFileSync(placeOrder, "utf8").replace("'too many open orders'", "'too many orders'"),
    );
    writeFileSync(
      path.join(folder, "functions/forgotten.sql"),
      "CREATE OR REPLACE FUNCTION forgotten() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n",
    );
    rmSync(path.join(folder, "triggers/audit_events_chain.sql"));
    expect(definitionDrift(folder)).toEqual([
      expect.stringMatching(
        /^drizzle\/functions\/place_order\.sql differs from its newest migration, \d{4}_/,
      ),
      expect.stringMatching(
        /^drizzle\/triggers\/audit_events_chain\.sql is missing: 0018_audit_hash_chain\.sql/,
      ),
      expect.stringMatching(/^drizzle\/functions\/forgotten\.sql: no migration defines function forgotten/),
    ]);
  });

  test("comments and whitespace do not count; CREATE and CREATE OR REPLACE are alike", () => {
    expect(
      normaliseDefinition(`-- about it
CREATE FUNCTION "f"(a int)
  RETURNS int LANGUAGE sql AS $$
  SELECT a -- the same
$$;`),
    ).toBe(
      normaliseDefinition("CREATE OR REPLACE FUNCTION f( a int ) RETURNS int LANGUAGE sql AS $$ SELECT a $$"),
    );
    expect(stripSqlComments("SELECT '--not a comment', \"a--b\" -- a comment")).toBe(
      "SELECT '--not a comment', \"a--b\" ",
    );
  });
});

describe("constants SQL and TypeScript share", () => {
  const functionsText = readdirSync(path.join(DRIZZLE_FOLDER, "functions"))
    .map((name) => stripSqlComments(readFileSync(path.join(DRIZZLE_FOLDER, "functions", name), "utf8")))
    .join("\n");

  test("the functions raise exactly the refusal codes of SQL_REFUSALS", () => {
    const raised = new Set([...functionsText.matchAll(/ERRCODE = '(CG\d{3})'/g)].map((match) => match[1]));
    expect([...raised].sort()).toEqual(Object.values(SQL_REFUSALS).sort());
    // One meaning per code: the open-orders limit and the order budget no longer share one.
    expect(functionsText).toMatch(/ERRCODE = 'CG428', MESSAGE = 'too many open orders'/);
    expect(functionsText).not.toMatch(/ERRCODE = 'CG429', MESSAGE = 'too many open orders'/);
  });

  test("TypeScript names a refusal code only through SQL_REFUSALS", () => {
    const offenders = sourceFiles(path.resolve(import.meta.dirname, "../../app"))
      .filter((file) => !file.endsWith("sql-refusals.ts"))
      .filter((file) => /["'`]CG\d{3}["'`]/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  test("the page-cache trigger watches the stock up to EXACT_STOCK_UP_TO + 1", () => {
    const trigger = readFileSync(
      path.join(DRIZZLE_FOLDER, "triggers/product_sizes_update_bump_catalog_version.sql"),
      "utf8",
    );
    const caps = [...trigger.matchAll(/least\((?:OLD|NEW)\."inventory_count", (\d+)\)/g)].map((match) =>
      Number(match[1]),
    );
    expect(caps).toEqual([EXACT_STOCK_UP_TO + 1, EXACT_STOCK_UP_TO + 1]);
  });
});

function copyOfDrizzle() {
  const folder = path.join(makeTempFolder(), "drizzle");
  cpSync(DRIZZLE_FOLDER, folder, { recursive: true });
  return folder;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}
