/**
 * The bytes budget: on the production build the whole run serves, the first load of /,
 * /shop and a product page stays within 128 KB of JS and 20 KB of CSS, gzipped, counted as
 * `npm run bench` counts them (tests/support/first-load.ts). Over budget, the failure names the
 * chunk that grew against bytes-budget.baseline.json, the chunk sizes of the last accepted build.
 * Accept new sizes with `npx playwright test bytes-budget --update-snapshots`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { budgetProblem, type ChunkSizes, chunkSizes, firstLoad } from "../support/first-load.ts";

const BASELINE_FILE = path.join(import.meta.dirname, "bytes-budget.baseline.json");
type Baseline = Record<string, { js: ChunkSizes; css: ChunkSizes }>;

function readBaseline(): Baseline {
  return existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, "utf8")) as Baseline) : {};
}

test("first-load JS and CSS of /, /shop and a product page stay within budget", async ({
  browser,
  request,
}, testInfo) => {
  const baseUrl = testInfo.project.use.baseURL ?? process.env.E2E_BASE_URL ?? "";
  const shop = await (await request.get("/shop")).text();
  const productPath = /href="(\/product\/[^"?#]+)"/.exec(shop)?.[1];
  expect(productPath, "a product link on /shop").toBeTruthy();
  const pages: Array<[key: string, path: string]> = [
    ["/", "/"],
    ["/shop", "/shop"],
    ["/product/{id}", productPath ?? ""],
  ];
  const baseline = readBaseline();
  const measured: Baseline = {};
  const problems: string[] = [];
  for (const [key, pagePath] of pages) {
    const load = await firstLoad(browser, baseUrl, pagePath);
    measured[key] = { js: chunkSizes(load.scripts), css: chunkSizes(load.stylesheets) };
    const problem = budgetProblem({ ...load, path: key }, baseline[key]);
    if (problem) problems.push(problem);
    testInfo.annotations.push({
      type: "first-load",
      description: `${key}: JS ${(load.jsGzipBytes / 1024).toFixed(1)} KB, CSS ${(load.cssGzipBytes / 1024).toFixed(1)} KB gzipped`,
    });
  }
  const update = testInfo.config.updateSnapshots;
  if (update === "all" || update === "changed" || (update === "missing" && !existsSync(BASELINE_FILE))) {
    writeFileSync(BASELINE_FILE, `${JSON.stringify(measured, null, 2)}\n`);
  }
  // Each problem names the page, its total, the budget and the chunk that grew.
  expect(problems).toEqual([]);
});
