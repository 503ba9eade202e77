import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { httpAnswers } from "./http-answers.ts";
import { appFiles, REPO_DIR } from "./import-graph.ts";

/**
 * Features return results; routes answer HTTP (docs/decisions/043). Only the guards that stop a
 * request before its route runs may throw a response from app/features.
 */
const MAY_ANSWER_HTTP = new Set([
  "app/features/staff/guard.server.ts",
  "app/features/abuse/rate-limits.server.ts",
]);

describe("HTTP is answered by routes, not features", () => {
  it("no module under app/features builds a response, except the guards", () => {
    const features = appFiles().filter(
      (file) => file.startsWith("app/features/") && !/\.test\.tsx?$/.test(file) && !MAY_ANSWER_HTTP.has(file),
    );
    expect(features.length).toBeGreaterThan(50);
    const offenders = features.flatMap((file) =>
      httpAnswers(readFileSync(path.join(REPO_DIR, file), "utf8")).map((where) => `${file}:${where}`),
    );
    expect(offenders).toEqual([]);
  });

  it("finds each way of answering HTTP, and lets types and contexts through", () => {
    const planted = [
      'import { data, type LoaderFunctionArgs } from "react-router";',
      'import { redirect as go } from "react-router";',
      'import { redirectWithToast } from "#app/utils/toast.server.ts";',
      'import type { RouterContextProvider } from "react-router";',
      'import { type redirect } from "react-router";',
      'export const a = () => new Response("no", { status: 403 });',
      "export const b = () => Response.json({}, { status: 400 });",
      '// a comment may say new Response(…) or import { data } from "react-router";',
    ].join("\n");
    expect(httpAnswers(planted)).toEqual([
      "1: imports data from react-router",
      "2: imports redirect from react-router",
      "3: imports #app/utils/toast.server.ts",
      "6: new Response",
      "7: Response.json",
    ]);
  });
});
