/**
 * Comments and test names cite only documents inside this repository: product decisions as P-N and
 * what the shop keeps from the first shop as K-N (docs/product-decisions.md), engineering records
 * as "record NNN" (docs/decisions/). An issue number, a section sign or a bare "decision N" points
 * at something a maintainer with only this repository cannot open.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = [
  "app",
  "scripts",
  "tests",
  "server.ts",
  "vitest.config.ts",
  "playwright.config.ts",
  "vite.config.ts",
];
const SOURCE = /\.(ts|tsx|css)$/;
const THIS_FILE = path.relative(ROOT, import.meta.filename);

/** What reads as a citation of a document outside the repository, with why. */
const OUTSIDE_CITATIONS: [RegExp, string][] = [
  [/\bissues? \d+/i, "an issue number"],
  [/\bspec (section|§)/i, "a section of an outside spec"],
  [/§\s?\d/, "a numbered section of an outside document"],
  [/\bdecisions? \d+/i, "a decision without its name (write P-N or record NNN)"],
];

function sourceFiles(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (SOURCE.test(relative)) return [relative];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((name) => SOURCE.test(name) && !name.split(path.sep).includes("node_modules"))
    .map((name) => path.join(relative, name));
}

/** Every line of `text` that cites an outside document, as "file:line: why". */
function outsideCitations(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    for (const [pattern, why] of OUTSIDE_CITATIONS) {
      if (pattern.test(line)) found.push(`${file}:${index + 1}: ${why}: ${line.trim()}`);
    }
  });
  return found;
}

/** Every P-N, K-N and record NNN cited in `text`. */
function citedNames(text: string) {
  return {
    product: [...text.matchAll(/\bP-(\d+)\b/g)].map((match) => Number(match[1])),
    kept: [...text.matchAll(/\bK-(\d+)\b/g)].map((match) => Number(match[1])),
    records: [...text.matchAll(/\brecords? (0\d\d)\b/gi)].map((match) => match[1] as string),
  };
}

describe("comments cite only this repository's documents", () => {
  const files = SCANNED.flatMap(sourceFiles).filter((file) => file !== THIS_FILE);
  const texts = files.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }));

  it("reads the whole source tree", () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it("finds no issue number, outside section or unnamed decision", () => {
    expect(texts.flatMap(({ file, text }) => outsideCitations(file, text))).toEqual([]);
  });

  it("names only product decisions, kept points and records that exist", () => {
    const decisions = readFileSync(path.join(ROOT, "docs/product-decisions.md"), "utf8");
    const written = {
      product: new Set([...decisions.matchAll(/^\*\*P-(\d+) /gm)].map((match) => Number(match[1]))),
      kept: new Set([...decisions.matchAll(/^\*\*K-(\d+) /gm)].map((match) => Number(match[1]))),
      records: new Set(readdirSync(path.join(ROOT, "docs/decisions")).map((name) => name.slice(0, 3))),
    };
    const unknown: string[] = [];
    for (const { file, text } of texts) {
      const cited = citedNames(text);
      for (const n of cited.product) if (!written.product.has(n)) unknown.push(`${file}: P-${n}`);
      for (const n of cited.kept) if (!written.kept.has(n)) unknown.push(`${file}: K-${n}`);
      for (const n of cited.records) if (!written.records.has(n)) unknown.push(`${file}: record ${n}`);
    }
    expect(unknown).toEqual([]);
  });

  // The check must not pass on a tree that cites outside documents.
  it("catches a planted issue number, spec section and bare decision", () => {
    const planted = [
      "// the cut-off (issue 15 item 2)",
      "/** Spec section 5: the minimum. */",
      "// word for word (spec §8)",
      "// the status flow (decision 23)",
      "// fine: P-23, K-8 and record 023",
    ].join("\n");
    expect(outsideCitations("planted.ts", planted).map((found) => found.split(": ")[1])).toEqual([
      "an issue number",
      "a section of an outside spec",
      "a section of an outside spec",
      "a numbered section of an outside document",
      "a decision without its name (write P-N or record NNN)",
    ]);
  });
});
