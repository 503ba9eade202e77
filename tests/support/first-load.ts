/**
 * First-load bytes of a page as a browser fetches them: every script and stylesheet of a fresh
 * mobile-sized visit, each gzipped (level 9). Shared by `npm run bench` (the BENCHMARKS.md figures)
 * and the bytes budget in `npm test` (tests/e2e/bytes-budget.spec.ts), so both count the same way.
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";

export type FirstLoad = {
  path: string;
  jsGzipBytes: number;
  cssGzipBytes: number;
  htmlGzipBytes: number;
  jsFiles: number;
  cssFiles: number;
  fontBytes: number;
  imageBytes: number;
  /** Every script with its gzipped size, largest first. */
  scripts: Array<{ name: string; gzipBytes: number }>;
  /** Every stylesheet with its gzipped size, largest first. */
  stylesheets: Array<{ name: string; gzipBytes: number }>;
};

/** Loads a page in a fresh mobile-sized context and sums what it fetched, each file gzipped (level 9). */
export async function firstLoad(browser: Browser, baseUrl: string, path: string): Promise<FirstLoad> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const pending: Promise<void>[] = [];
  const result: FirstLoad = {
    path,
    jsGzipBytes: 0,
    cssGzipBytes: 0,
    htmlGzipBytes: 0,
    jsFiles: 0,
    cssFiles: 0,
    fontBytes: 0,
    imageBytes: 0,
    scripts: [],
    stylesheets: [],
  };
  page.on("response", (response) => {
    const type = response.request().resourceType();
    pending.push(
      response
        .body()
        .then((body) => {
          const gz = gzipSync(body, { level: 9 }).length;
          if (type === "script") {
            result.jsGzipBytes += gz;
            result.jsFiles++;
            result.scripts.push({
              name: new URL(response.url()).pathname.split("/").pop() ?? "",
              gzipBytes: gz,
            });
          } else if (type === "stylesheet") {
            result.cssGzipBytes += gz;
            result.cssFiles++;
            result.stylesheets.push({
              name: new URL(response.url()).pathname.split("/").pop() ?? "",
              gzipBytes: gz,
            });
          } else if (type === "document") result.htmlGzipBytes += gz;
          else if (type === "font") result.fontBytes += body.length;
          else if (type === "image") result.imageBytes += body.length;
        })
        .catch(() => {}),
    );
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
  await Promise.all(pending);
  result.scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
  result.stylesheets.sort((a, b) => b.gzipBytes - a.gzipBytes);
  await context.close();
  return result;
}

/** The budgets (record 009) for /, /shop and a product page: first-load JS and CSS, gzipped. */
export const FIRST_LOAD_BUDGET = { jsGzipBytes: 128 * 1024, cssGzipBytes: 20 * 1024 } as const;

/** `storefront-CEHgDPPZ.js` → `storefront`: a chunk's name without its content hash. */
export function chunkName(file: string) {
  return file.replace(/-[\w-]{8}\.(js|css)$/, "").replace(/\.(js|css)$/, "");
}

/** Gzipped bytes per chunk name (hash left out), so a build can be compared with an earlier one. */
export type ChunkSizes = Record<string, number>;

export function chunkSizes(files: Array<{ name: string; gzipBytes: number }>): ChunkSizes {
  const sizes: ChunkSizes = {};
  for (const file of files) {
    const name = chunkName(file.name);
    sizes[name] = (sizes[name] ?? 0) + file.gzipBytes;
  }
  return sizes;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Why a page's first load is over budget, or null: the total, the budget, and the chunk that grew
 * the most against `baseline` (the sizes of the last accepted build), then every chunk.
 */
export function budgetProblem(
  load: FirstLoad,
  baseline: { js: ChunkSizes; css: ChunkSizes } | undefined,
  budget: { jsGzipBytes: number; cssGzipBytes: number } = FIRST_LOAD_BUDGET,
): string | null {
  const problems: string[] = [];
  for (const [kind, total, limit, files, before] of [
    ["JS", load.jsGzipBytes, budget.jsGzipBytes, load.scripts, baseline?.js],
    ["CSS", load.cssGzipBytes, budget.cssGzipBytes, load.stylesheets, baseline?.css],
  ] as const) {
    if (total <= limit) continue;
    const now = chunkSizes(files);
    const growth = Object.entries(now)
      .map(([name, bytes]) => ({ name, bytes, before: before?.[name], grew: bytes - (before?.[name] ?? 0) }))
      .sort((a, b) => b.grew - a.grew);
    const top = growth[0];
    const grew = !top
      ? "no chunk loaded"
      : before === undefined
        ? `the largest chunk is ${top.name} (${kb(top.bytes)}); no baseline to compare with`
        : top.before === undefined
          ? `the chunk that grew: ${top.name}, new (${kb(top.bytes)})`
          : `the chunk that grew: ${top.name}, ${kb(top.before)} → ${kb(top.bytes)} (+${kb(top.grew)})`;
    problems.push(
      `first-load ${kind} on ${load.path} is ${kb(total)} gzipped, over the ${kb(limit)} budget by ${kb(total - limit)}; ${grew}. Chunks: ${growth
        .map(
          (chunk) =>
            `${chunk.name} ${kb(chunk.bytes)}${chunk.before === undefined ? " (new)" : Math.abs(chunk.grew) < 52 ? "" : ` (${chunk.grew > 0 ? "+" : ""}${kb(chunk.grew)})`}`,
        )
        .join(", ")}`,
    );
  }
  return problems.length > 0 ? problems.join("\n") : null;
}
