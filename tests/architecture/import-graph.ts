/**
 * The import graph of app/ and the layer rules it must keep (docs/architecture.md). Read from the
 * source text, so the check needs no build and names the exact line that breaks a rule.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const APP_DIR = path.resolve(import.meta.dirname, "../../app");

/** Low to high: a module may import its own layer or a lower one, never a higher one. */
export const LAYERS = ["utils", "db", "features", "demo", "components", "routes", "server", "app"] as const;
export type Layer = (typeof LAYERS)[number];

/** Layers only the layers named may import (besides themselves). */
const ONLY_IMPORTED_BY: Partial<Record<Layer, Layer[]>> = {
  // The demo catalogue is seeded at boot; no page or rule may depend on it.
  demo: ["server"],
};

export type ImportEdge = { from: string; to: string; line: number; typeOnly: boolean; text: string };

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[\s\S]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every .ts/.tsx file below app/ (relative to it), tests excluded: tests may import anything. */
export function appFiles(dir = APP_DIR): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .filter((entry) => !entry.parentPath.split(path.sep).includes("+types"))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * app-relative path of the module an import specifier points at, or null when it is no module of
 * app/ (packages, tests, assets such as icons.svg?url or app.css, React Router's generated +types).
 */
export function resolveSpecifier(from: string, specifier: string): string | null {
  if (/[?]|\.(css|svg|png|json)$|\+types\//.test(specifier)) return null;
  if (specifier.startsWith("#app/")) return specifier.slice("#app/".length);
  if (specifier.startsWith(".")) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
    return resolved.startsWith("..") ? null : resolved;
  }
  return null;
}

export function importsOf(file: string, source: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[3] ?? match[4];
    if (!specifier) continue;
    const to = resolveSpecifier(file, specifier);
    if (!to) continue;
    const line = source.slice(0, match.index + (match[0].startsWith("\n") ? 1 : 0)).split("\n").length;
    edges.push({
      from: file,
      to,
      line,
      typeOnly: Boolean(match[2]),
      text: match[0].trim().split("\n")[0] ?? "",
    });
  }
  return edges;
}

export function importGraph(dir = APP_DIR): ImportEdge[] {
  return appFiles(dir).flatMap((file) => importsOf(file, readFileSync(path.join(dir, file), "utf8")));
}

export function layerOf(file: string): Layer {
  const top = file.includes("/") ? file.split("/")[0] : "app";
  if ((LAYERS as readonly string[]).includes(top as string)) return top as Layer;
  throw new Error(`${file} is in no layer: add its folder to LAYERS in tests/architecture/import-graph.ts`);
}

const isServerOnly = (file: string) => /\.server\.tsx?$/.test(file);

/** Imports that break a rule, each with the reason. */
export function violations(edges: ImportEdge[]): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    const where = `app/${edge.from}:${edge.line} imports app/${edge.to}`;
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
  }
  return found;
}

/** Import cycles between files (type-only imports left out: they vanish at build time). */
export function cycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.typeOnly) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === "open") found.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file);
  return found;
}
