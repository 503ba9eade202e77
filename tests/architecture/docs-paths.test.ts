/**
 * The documents a newcomer reads first name files that exist: every repository path in
 * `docs/architecture.md` and README.md (`app/…`, `drizzle/…`, `tests/…`, `scripts/…`, `docs/…`,
 * `public/…`), and every file `docs/architecture.md` names alone in backticks (`catalog.server.ts`)
 * somewhere in the repository. A path cut short (`drizzle/0002…`) or pointing at a file that moved fails.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCUMENTS = ["docs/architecture.md", "README.md"];
const FOLDERS = ["app", "drizzle", "tests", "scripts", "docs", "public"];

/** Paths from the repository's root, as a document writes them. */
function repositoryPaths(text: string): string[] {
  const pattern = new RegExp(`(?<![\\w/.#-])(?:${FOLDERS.join("|")})/[^\\s\`'"(),;:<>|\\[\\]]*`, "g");
  return [...text.matchAll(pattern)].map((match) => match[0].replace(/[.]+$/, ""));
}

/** File names written alone in backticks: `catalog.server.ts`. */
function bareFileNames(text: string): string[] {
  return [...text.matchAll(/`([\w.-]+\.(?:ts|tsx|sql|md|css|json))`/g)].map((match) => match[1] as string);
}

function namesUnder(folders: string[]): Set<string> {
  const names = new Set<string>();
  for (const folder of folders) {
    for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) names.add(entry.name);
    }
  }
  return names;
}

describe.each(DOCUMENTS)("%s names files that exist", (document) => {
  const text = readFileSync(path.join(ROOT, document), "utf8");

  test("every repository path", () => {
    const paths = repositoryPaths(text);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((named) => !existsSync(path.join(ROOT, named)))).toEqual([]);
  });

  test.runIf(document === "docs/architecture.md")("every file named alone", () => {
    const known = namesUnder(FOLDERS);
    expect(
      bareFileNames(text).filter((name) => !known.has(name) && !existsSync(path.join(ROOT, name))),
    ).toEqual([]);
  });
});

test("a path cut short or gone is caught", () => {
  const planted = "the SQL (`drizzle/0002…`), `app/features/orders/gone.server.ts` and `gone-too.ts`";
  expect(repositoryPaths(planted)).toEqual(["drizzle/0002…", "app/features/orders/gone.server.ts"]);
  expect(repositoryPaths(planted).filter((named) => !existsSync(path.join(ROOT, named)))).toHaveLength(2);
  expect(bareFileNames(planted)).toEqual(["gone-too.ts"]);
});
