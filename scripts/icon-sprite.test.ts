import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ICON_NAMES } from "#app/components/ui/icon-names.ts";
import { buildIconSprite, SPRITE_PATH } from "./icon-sprite.ts";

const APP_DIR = path.resolve(import.meta.dirname, "../app");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("the icon sprite", () => {
  const sprite = readFileSync(SPRITE_PATH, "utf8");

  it("is what `npm run icons` writes from lucide's data (run it after changing ICON_NAMES)", async () => {
    expect(sprite).toBe(await buildIconSprite(ICON_NAMES));
  });

  it('holds every icon the app names in <Icon name="…">', () => {
    const symbols = new Set([...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1]));
    const used = new Set<string>();
    for (const file of sourceFiles(APP_DIR)) {
      for (const match of readFileSync(file, "utf8").matchAll(/<Icon\s+name="([^"]+)"/g)) {
        used.add(match[1] as string);
      }
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !symbols.has(name))).toEqual([]);
  });

  it("no longer pulls lucide-react into the app", () => {
    const importers = sourceFiles(APP_DIR).filter((file) =>
      readFileSync(file, "utf8").includes('from "lucide-react'),
    );
    expect(importers).toEqual([]);
  });
});
