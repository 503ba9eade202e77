/**
 * The import graph of app/ and the layer rules it must keep (docs/architecture.md). Imports are read
 * by the TypeScript compiler's own parser (the `typescript` dev dependency's API), so a statement is
 * type-only exactly when the compiler erases it, whatever text comes before it; no build is needed,
 * and each break is named by file and line.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { getTokenPosOfNode, type Node, type SourceFile, SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

export const REPO_DIR = path.resolve(import.meta.dirname, "../..");

/** Low to high: a module may import its own layer or a lower one, never a higher one. */
export const LAYERS = ["utils", "db", "features", "demo", "components", "routes", "server", "app"] as const;
export type Layer = (typeof LAYERS)[number];

/** Layers only the layers named may import (besides themselves). */
const ONLY_IMPORTED_BY: Partial<Record<Layer, Layer[]>> = {
  // The demo catalogue is seeded at boot; no page or rule may depend on it.
  demo: ["server"],
};

/**
 * Which feature folder may import which (besides itself): each folder has one owner, and the
 * folders form one order, low to high, so no two of them import each other, even through a third.
 * An import between feature folders not listed here fails the test; add it here, in the same
 * change, when the design really calls for it (docs/architecture.md, "Feature folders").
 */
export const FEATURE_IMPORTS: Record<string, readonly string[]> = {
  abuse: [],
  audit: [],
  email: [],
  keyring: [],
  settings: ["audit"],
  "purchase-limits": ["settings"],
  catalog: ["abuse", "audit", "email", "purchase-limits", "settings"],
  cart: ["catalog"],
  delivery: ["audit", "cart", "purchase-limits", "settings"],
  staff: ["abuse", "audit", "email", "keyring", "settings"],
  media: ["audit", "keyring", "settings", "staff"],
  backups: ["email"],
  orders: ["audit", "delivery", "email", "media", "staff"],
  checkout: [
    "abuse",
    "audit",
    "cart",
    "catalog",
    "customers",
    "delivery",
    "email",
    "media",
    "orders",
    "purchase-limits",
    "settings",
  ],
  customers: ["abuse", "audit", "cart", "delivery", "email", "orders"],
};

export type ImportEdge = { from: string; to: string; line: number; typeOnly: boolean; text: string };

const isCode = (file: string) => /\.(tsx?|mts|cts|jsx?|mjs|cjs)$/.test(file);

/** Every .ts/.tsx file below app/ (repo-relative), tests excluded: tests may import anything. */
export function appFiles(): string[] {
  return readdirSync(path.join(REPO_DIR, "app"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .filter((entry) => !entry.parentPath.split(path.sep).includes("+types"))
    .map((entry) =>
      path.relative(REPO_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
    )
    .sort();
}

/**
 * Repo-relative path an import specifier points at (`#app/…` and `#tests/…` as package.json's
 * `imports` map them, `./` and `../` from the importing file, a `?url`/`?raw` suffix dropped), or
 * null for a package and for React Router's generated `+types`.
 */
export function resolveSpecifier(from: string, specifier: string): string | null {
  const name = specifier.split("?")[0] ?? "";
  if (/(^|\/)\+types\//.test(name)) return null;
  if (name.startsWith("#app/")) return `app/${name.slice("#app/".length)}`;
  if (name.startsWith("#tests/")) return `tests/${name.slice("#tests/".length)}`;
  if (name.startsWith("./") || name.startsWith("../")) {
    return path.posix.normalize(path.posix.join(path.posix.dirname(from), name));
  }
  return null;
}

/** The module specifier nodes of a file with whether the import vanishes at build time. */
function moduleReferences(
  file: SourceFile,
): { specifier: Node & { text: string }; statement: Node; typeOnly: boolean }[] {
  return file.imports.map((node) => {
    const specifier = node as Node & { text: string };
    let statement: Node = specifier.parent;
    // `typeof import("x")` and `import("x").T` in a type: the specifier sits in a literal type.
    if (statement.kind === SyntaxKind.LiteralType) statement = statement.parent;
    return { specifier, statement, typeOnly: isTypeOnly(statement) };
  });
}

/**
 * Whether the compiler erases an import. With `verbatimModuleSyntax` (tsconfig.json) that is only
 * `import type …`, `export type … from` and import types; `import { type A } from "x"` stays as a
 * bare `import "x"`, so it counts as a value import.
 */
function isTypeOnly(statement: Node): boolean {
  switch (statement.kind) {
    case SyntaxKind.ImportDeclaration: {
      const clause = (statement as Node & { importClause?: Node & { phaseModifier?: SyntaxKind } })
        .importClause;
      return clause?.phaseModifier === SyntaxKind.TypeKeyword;
    }
    case SyntaxKind.ExportDeclaration:
    case SyntaxKind.ImportEqualsDeclaration:
      return (statement as Node & { isTypeOnly: boolean }).isTypeOnly;
    case SyntaxKind.ImportType:
      return true;
    default:
      return false; // import("x"), require("x")
  }
}

/**
 * The imports of the given files (repo-relative path → source text, or undefined to read it from
 * disk), parsed in one TypeScript project: every import to a file of this repository, whether the
 * file exists or not (the test checks that), packages left out.
 */
export function parseImports(files: Record<string, string | undefined>): ImportEdge[] {
  const configPath = path.join(REPO_DIR, "tests/architecture/__imports__.tsconfig.json");
  const sources = new Map(
    Object.entries(files).map(([file, text]) => [path.join(REPO_DIR, file), text] as const),
  );
  const config = JSON.stringify({
    files: [...sources.keys()],
    // Parsing only: no library, no resolution, no type check.
    compilerOptions: {
      noLib: true,
      noResolve: true,
      types: [],
      jsx: "react-jsx",
      allowImportingTsExtensions: true,
    },
  });
  const api = new API({
    cwd: REPO_DIR,
    fs: {
      readFile: (name) => (name === configPath ? config : sources.get(name)),
      fileExists: (name) => (name === configPath || sources.get(name) !== undefined ? true : undefined),
    },
  });
  try {
    const project = api.updateSnapshot({ openProjects: [configPath] }).getProject(configPath);
    if (!project) throw new Error("TypeScript opened no project for the import graph");
    const edges: ImportEdge[] = [];
    for (const [absolute] of sources) {
      const source = project.program.getSourceFile(absolute);
      if (!source) throw new Error(`TypeScript did not parse ${absolute}`);
      const from = path.relative(REPO_DIR, absolute).split(path.sep).join("/");
      for (const { specifier, statement, typeOnly } of moduleReferences(source)) {
        const to = resolveSpecifier(from, specifier.text);
        if (!to) continue;
        const start = getTokenPosOfNode(statement, source);
        const line = source.getLineAndCharacterOfPosition(start).line + 1;
        const text = source.text.slice(start, statement.end).split("\n")[0]?.trim() ?? "";
        edges.push({ from, to, line, typeOnly, text });
      }
    }
    return edges;
  } finally {
    api.close();
  }
}

/** The import graph of every module of app/ as it is on disk. */
export function importGraph(): ImportEdge[] {
  return parseImports(Object.fromEntries(appFiles().map((file) => [file, undefined])));
}

export function layerOf(file: string): Layer {
  const [root, top] = file.split("/");
  if (root !== "app") throw new Error(`${file} is outside app/`);
  const layer = file.split("/").length === 2 ? "app" : top;
  if ((LAYERS as readonly string[]).includes(layer as string)) return layer as Layer;
  throw new Error(`${file} is in no layer: add its folder to LAYERS in tests/architecture/import-graph.ts`);
}

/** The feature folder of a file under app/features/, or null. */
export function featureOf(file: string): string | null {
  const match = /^app\/features\/([^/]+)\//.exec(file);
  return match?.[1] ?? null;
}

const isServerOnly = (file: string) => /\.server\.tsx?$/.test(file);

/** Imports that break a rule, each with the reason. */
export function violations(
  edges: ImportEdge[],
  allowedFeatureImports: Record<string, readonly string[]> = FEATURE_IMPORTS,
): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const where = `${edge.from}:${edge.line} imports ${edge.to}`;
    if (!edge.to.startsWith("app/")) {
      found.push(`${where}: app/ may import only app/ modules and packages`);
      continue;
    }
    if (!isCode(edge.to)) continue; // styles, icons, word lists: no module of a layer
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
      found.push(`${where}: ${from} may not import ${to} (upward)`);
    }
    const only = ONLY_IMPORTED_BY[to];
    if (only && from !== to && !only.includes(from)) {
      found.push(`${where}: only ${only.join(", ")} may import ${to}`);
    }
    // Browser code (components, utils and features modules without .server) must not pull server
    // modules into the bundle; routes may, since React Router strips their loaders and actions.
    const browserSide = ["components", "features", "utils"].includes(from) && !isServerOnly(edge.from);
    if (browserSide && isServerOnly(edge.to) && !edge.typeOnly) {
      found.push(`${where}: browser-side module imports a *.server module`);
    }
    // Types count here: a folder that needs another's types depends on it as much as on its code.
    const fromFeature = featureOf(edge.from);
    const toFeature = featureOf(edge.to);
    if (fromFeature && toFeature && fromFeature !== toFeature) {
      const allowed = allowedFeatureImports[fromFeature];
      if (!allowed) found.push(`${where}: features/${fromFeature} is not in FEATURE_IMPORTS`);
      else if (!allowed.includes(toFeature)) {
        found.push(
          `${where}: features/${fromFeature} may not import features/${toFeature} (FEATURE_IMPORTS)`,
        );
      }
    }
  }
  return found;
}

/** Cycles in a directed graph given as edges, each cycle as the path that closes it. */
function cyclesOf(next: Map<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const target of next.get(node) ?? []) {
      if (state.get(target) === "open") found.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** Import cycles between files (type-only imports left out: they vanish at build time). */
export function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.typeOnly) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  return cyclesOf(next);
}

/**
 * Cycles between feature folders, type-only imports included, in the imports themselves and in the
 * table of allowed ones (a table with a cycle would let one in later).
 */
export function featureCycles(
  edges: ImportEdge[],
  allowedFeatureImports: Record<string, readonly string[]> = FEATURE_IMPORTS,
): string[][] {
  const next = new Map<string, string[]>(Object.entries(allowedFeatureImports).map(([k, v]) => [k, [...v]]));
  for (const edge of edges) {
    const from = featureOf(edge.from);
    const to = featureOf(edge.to);
    if (!from || !to || from === to) continue;
    const targets = next.get(from) ?? [];
    if (!targets.includes(to)) next.set(from, [...targets, to]);
  }
  return cyclesOf(next);
}
