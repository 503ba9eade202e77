import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  appFiles,
  cycles,
  FEATURE_IMPORTS,
  featureCycles,
  importGraph,
  layerOf,
  parseImports,
  REPO_DIR,
  violations,
} from "./import-graph.ts";

describe("app/ import boundaries (docs/architecture.md)", () => {
  const edges = importGraph();

  it("reads the whole app: every file in a layer, every import resolved to a real file", () => {
    const files = appFiles();
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) expect(() => layerOf(file)).not.toThrow();
    expect(edges.length).toBeGreaterThan(1000);
    const missing = edges
      .filter((edge) => !existsSync(path.join(REPO_DIR, edge.to)))
      .map((edge) => `${edge.from}:${edge.line} → ${edge.to}`);
    expect(missing).toEqual([]);
  });

  it("imports only downward: routes → components → features → db → utils", () => {
    expect(violations(edges)).toEqual([]);
  });

  it("has no import cycles", () => {
    expect(cycles(edges).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("lists every feature folder in FEATURE_IMPORTS, and the folders import each other one way", () => {
    const folders = readdirSync(path.join(REPO_DIR, "app/features"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(Object.keys(FEATURE_IMPORTS).sort()).toEqual(folders);
    expect(featureCycles(edges).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("documents the same table, in the same order, in docs/architecture.md", () => {
    const doc = readFileSync(path.join(REPO_DIR, "docs/architecture.md"), "utf8");
    const section = doc.split("## Feature folders")[1]?.split("\n## ")[0] ?? "";
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \|.*\| ([^|]*) \|$/gm)].map(([, folder, imports]) => [
      folder,
      imports === "—" ? [] : (imports ?? "").split(", "),
    ]);
    expect(rows).toEqual(Object.entries(FEATURE_IMPORTS));
  });

  // The check itself must not pass on a broken tree: the same rules on planted imports, parsed by
  // the same compiler over the real files with the planted text in their place.
  it("catches an upward import, a demo import from a page, a server module in the browser and a file cycle", () => {
    const planted = parseImports({
      "app/features/cart/cart.ts": 'import { Button } from "#app/components/ui/button.tsx";',
      "app/routes/_store/shop.tsx": 'import { demoProducts } from "#app/demo/demo-catalog.ts";',
      "app/components/price.tsx": 'import { db } from "#app/db/client.server.ts";',
      "app/utils/a.ts": 'export { b } from "./b.ts";',
      "app/utils/b.ts": 'import { a } from "./a.ts";',
    });
    expect(violations(planted)).toEqual([
      "app/features/cart/cart.ts:1 imports app/components/ui/button.tsx: features may not import components (upward)",
      "app/routes/_store/shop.tsx:1 imports app/demo/demo-catalog.ts: only server may import demo",
      "app/components/price.tsx:1 imports app/db/client.server.ts: browser-side module imports a *.server module",
    ]);
    expect(cycles(planted)).toEqual([["app/utils/a.ts", "app/utils/b.ts", "app/utils/a.ts"]]);
  });

  it("catches a value import written after `export type X = {…}`", () => {
    const planted = parseImports({
      "app/components/price.tsx": [
        "export type PriceProps = {",
        "  cents: number;",
        "};",
        'import { db } from "#app/db/client.server.ts";',
        'import type { Executor } from "#app/db/client.server.ts";',
        'export type { Database } from "#app/db/client.server.ts";',
        'type Lazy = typeof import("#app/db/client.server.ts");',
      ].join("\n"),
    });
    expect(planted.map((edge) => [edge.line, edge.typeOnly])).toEqual([
      [4, false],
      [5, true],
      [6, true],
      [7, true],
    ]);
    expect(violations(planted)).toEqual([
      "app/components/price.tsx:4 imports app/db/client.server.ts: browser-side module imports a *.server module",
    ]);
  });

  it("catches an import from app/ into tests/, by alias or by relative path", () => {
    const planted = parseImports({
      "app/features/cart/cart.ts": [
        'import { describeEachDatabase } from "#tests/db.ts";',
        'import { testIdPhoto } from "../../../tests/support/checkout-test-helpers.server.ts";',
        'const later = () => import("../../../scripts/stock-verify.ts");',
      ].join("\n"),
    });
    expect(violations(planted)).toEqual([
      "app/features/cart/cart.ts:1 imports tests/db.ts: app/ may import only app/ modules and packages",
      "app/features/cart/cart.ts:2 imports tests/support/checkout-test-helpers.server.ts: app/ may import only app/ modules and packages",
      "app/features/cart/cart.ts:3 imports scripts/stock-verify.ts: app/ may import only app/ modules and packages",
    ]);
  });

  it("catches an import between feature folders the table does not allow, and a cycle between folders", () => {
    const planted = parseImports({
      "app/features/catalog/catalog.ts": 'import { cartTotals } from "#app/features/cart/cart.ts";',
    });
    expect(violations(planted)).toEqual([
      "app/features/catalog/catalog.ts:1 imports app/features/cart/cart.ts: features/catalog may not import features/cart (FEATURE_IMPORTS)",
    ]);
    expect(featureCycles(planted)).toEqual([["cart", "catalog", "cart"]]);
    expect(featureCycles([], { ...FEATURE_IMPORTS, abuse: ["checkout"] })).toContainEqual(
      expect.arrayContaining(["abuse", "checkout"]),
    );
  });
});
