/**
 * `ProductCardView` reads no context (README.md, rule 1): it and every module of app/ it imports
 * call only React's own state hooks, and import nothing from a package that could read one for them.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(import.meta.dirname, "../..");
const VIEW = "components/listing/product-card-view.tsx";
/** Hooks that keep state of the component's own and read nothing from above it. */
const OWN_STATE_HOOKS = new Set([
  "useState",
  "useReducer",
  "useRef",
  "useId",
  "useMemo",
  "useCallback",
  "useEffect",
  "useLayoutEffect",
]);
/** Packages whose values the card's modules may use: none of them reads a React context. */
const PACKAGES = new Set(["react", "clsx", "class-variance-authority", "tailwind-merge", "sonner"]);

const IMPORT =
  /^\s*(import|export)\s+(type\s+)?(?:[\s\S]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

type Finding = { file: string; problem: string };

/** What a module's own text shows: the hooks it calls and the modules it imports for their values. */
function readModule(file: string, text: string) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const hooks = [...code.matchAll(/\b(use[A-Z]\w*|use)\s*(?:<[^>]*>)?\(/g)].map(
    (match) => match[1] as string,
  );
  const imports: { specifier: string; typeOnly: boolean }[] = [];
  for (const match of code.matchAll(IMPORT)) {
    const specifier = (match[3] ?? match[4]) as string;
    const typeOnly = Boolean(match[2]) || /^\s*import\s*\{\s*(type\s+\w+\s*,?\s*)+\}/.test(match[0]);
    imports.push({ specifier, typeOnly });
  }
  return { file, hooks, imports };
}

function resolve(from: string, specifier: string): string | null {
  if (specifier.endsWith(".css") || specifier.includes("?")) return null;
  if (specifier.startsWith("#app/")) return specifier.slice(5);
  if (specifier.startsWith("."))
    return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return null;
}

function packageOf(specifier: string) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

/** Walks the card's modules from `entry`, reading each with `read`; returns what breaks rule 1. */
function contextReads(
  entry: string,
  read: (file: string) => string,
): { files: string[]; findings: Finding[] } {
  const seen = new Set<string>();
  const queue = [entry];
  const findings: Finding[] = [];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const module = readModule(file, read(file));
    for (const hook of module.hooks) {
      if (!OWN_STATE_HOOKS.has(hook)) findings.push({ file, problem: `calls ${hook}()` });
    }
    for (const { specifier, typeOnly } of module.imports) {
      if (typeOnly) continue;
      const local = resolve(file, specifier);
      if (local) queue.push(local);
      else if (!specifier.endsWith(".css") && !PACKAGES.has(packageOf(specifier))) {
        findings.push({ file, problem: `imports ${specifier}` });
      }
    }
  }
  return { files: [...seen], findings };
}

function readApp(file: string) {
  const full = path.join(APP, file);
  if (!existsSync(full)) throw new Error(`${file} not found`);
  return readFileSync(full, "utf8");
}

describe("the product card view", () => {
  it("reads no context: only own-state hooks in it and every module it imports", () => {
    const { files, findings } = contextReads(VIEW, readApp);
    expect(files).toEqual(
      expect.arrayContaining([VIEW, "components/price.tsx", "components/link-clicks.ts"]),
    );
    expect(findings).toEqual([]);
  });

  it("catches a context read, a router hook and a hook imported from elsewhere", () => {
    const planted: Record<string, string> = {
      "components/listing/product-card-view.tsx": [
        'import { useContext, useState } from "react";',
        'import { useNavigate } from "react-router";',
        'import type { CartActions } from "#app/components/cart-context.tsx";',
        'import { Price } from "./price.tsx";',
        "export function ProductCardView() { const [a] = useState(0); useContext(X); return null; }",
      ].join("\n"),
      "components/listing/price.tsx": 'import { use } from "react";\nexport function Price() { use(Y); }',
    };
    const { findings } = contextReads(VIEW, (file) => planted[file] ?? "");
    expect(findings.map((finding) => `${finding.file}: ${finding.problem}`)).toEqual([
      "components/listing/product-card-view.tsx: calls useContext()",
      "components/listing/product-card-view.tsx: imports react-router",
      "components/listing/price.tsx: calls use()",
    ]);
  });
});
