import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABELS } from "./audit-actions.ts";

const APP = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("audit action labels", () => {
  it("names every action the app records, in words, for the audit page and the order history", () => {
    const recorded = new Set<string>();
    for (const file of [...sourceFiles(APP), ...sourceFiles(path.join(APP, "../scripts"))]) {
      for (const match of readFileSync(file, "utf8").matchAll(/\baction: "([a-z_]+\.[a-z_]+)"/g)) {
        recorded.add(match[1] as string);
      }
    }
    expect(recorded.size).toBeGreaterThan(20);
    const unlabelled = [...recorded].filter((action) => !(action in AUDIT_ACTION_LABELS));
    expect(unlabelled).toEqual([]);
  });
});
