import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APP_DIR, appFiles, cycles, importGraph, importsOf, layerOf, violations } from "./import-graph.ts";

describe("app/ import boundaries (docs/architecture.md)", () => {
  const edges = importGraph();

  it("reads the whole app: every file in a layer, every import resolved to a real file", () => {
    const files = appFiles();
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) expect(() => layerOf(file)).not.toThrow();
    const missing = edges
      .filter((edge) => !existsSync(path.join(APP_DIR, edge.to)))
      .map((edge) => `app/${edge.from}:${edge.line} → ${edge.to}`);
    expect(missing).toEqual([]);
  });

  it("imports only downward: routes → components → features → db → utils", () => {
    expect(violations(edges)).toEqual([]);
  });

  it("has no import cycles", () => {
    expect(cycles(edges).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  // The check itself must not pass on a broken tree: the same rules on planted imports.
  it("catches an upward import, a demo import from a page, a server module in the browser and a cycle", () => {
    const planted = [
      ...importsOf("features/cart/cart.ts", 'import { Button } from "#app/components/ui/button.tsx";'),
      ...importsOf("routes/_store/shop.tsx", 'import { demoProducts } from "#app/demo/demo-catalog.ts";'),
      ...importsOf("components/price.tsx", 'import { db } from "#app/db/client.server.ts";'),
      ...importsOf("utils/a.ts", 'export { b } from "./b.ts";'),
      ...importsOf("utils/b.ts", 'import { a } from "./a.ts";'),
    ];
    expect(violations(planted)).toEqual([
      "app/features/cart/cart.ts:1 imports app/components/ui/button.tsx: features may not import components (upward)",
      "app/routes/_store/shop.tsx:1 imports app/demo/demo-catalog.ts: only server may import demo",
      "app/components/price.tsx:1 imports app/db/client.server.ts: browser-side module imports a *.server module",
    ]);
    expect(cycles(planted)).toEqual([["utils/a.ts", "utils/b.ts", "utils/a.ts"]]);
  });
});
