/**
 * P-5: every admin route refuses a signed-out request. The routes are read from app/routes.ts
 * itself, so a route added later is tested without anyone remembering to add it here.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import routes from "../../app/routes.ts";
import { signIn } from "./admin-support.ts";

type Entry = { path?: string; index?: boolean; file: string; children?: Entry[] };
type AdminRoute = { url: string; file: string; guarded: boolean; isResource: boolean };

const APP = path.resolve(import.meta.dirname, "../../app");
const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";

function adminRoutes(): AdminRoute[] {
  const found: AdminRoute[] = [];
  const walk = (entries: Entry[], base: string, underGuard: boolean) => {
    for (const entry of entries) {
      const url = entry.path ? `${base}/${entry.path}`.replace(/\/+/g, "/") : base;
      const guarded = underGuard || entry.file === "routes/admin/layout.tsx";
      if (entry.file.startsWith("routes/admin/") && entry.file !== "routes/admin/layout.tsx") {
        const source = readFileSync(path.join(APP, entry.file), "utf8");
        found.push({
          url: url.replace(/:[a-z]+/gi, SAMPLE_ID),
          file: entry.file,
          guarded,
          isResource: !/export default/.test(source),
        });
      }
      if (entry.children) walk(entry.children, url, guarded);
    }
  };
  walk(routes as unknown as Entry[], "", false);
  return found;
}

/**
 * Route module files under `<appDir>/routes/admin` (read from disk) that app/routes.ts does not
 * declare: such a file would escape this test's list, so it must not exist.
 */
function undeclaredAdminFiles(appDir: string, declared: ReadonlySet<string>): string[] {
  return readdirSync(path.join(appDir, "routes/admin"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(appDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((file) => !file.includes("/+types/") && !declared.has(file))
    .sort();
}

const ALL = adminRoutes();
/** The sign-in pages (password, then the code) and the invitation link are open to the signed out. */
const PUBLIC = new Set([
  "routes/admin/login.tsx",
  "routes/admin/login-code.tsx",
  "routes/admin/invitation.tsx",
]);

test("every admin route module except the sign-in pages and the invitation sits under the guarded layout", () => {
  expect(ALL.length).toBeGreaterThanOrEqual(10);
  const unguarded = ALL.filter((route) => !route.guarded && !PUBLIC.has(route.file)).map(
    (route) => route.file,
  );
  expect(unguarded).toEqual([]);
});

test("every file in app/routes/admin is a declared route, so none escapes the checks below", () => {
  const declared = new Set([...ALL.map((route) => route.file), "routes/admin/layout.tsx"]);
  expect(undeclaredAdminFiles(APP, declared)).toEqual([]);
  // The check itself: a copy of app/routes/admin with one more module nobody declared is caught.
  const copy = mkdtempSync(path.join(tmpdir(), "cg-admin-guard-"));
  try {
    cpSync(path.join(APP, "routes/admin"), path.join(copy, "routes/admin"), { recursive: true });
    writeFileSync(path.join(copy, "routes/admin/orders/export.tsx"), "export default function Export() {}\n");
    expect(undeclaredAdminFiles(copy, declared)).toEqual(["routes/admin/orders/export.tsx"]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

for (const route of ALL.filter((entry) => !PUBLIC.has(entry.file))) {
  test(`signed out, ${route.url} (${route.file}) refuses pages, data, actions and files`, async ({
    request,
  }) => {
    // A page (document request): redirected to the login page.
    const page = await request.get(route.url, { headers: { Accept: "text/html" }, maxRedirects: 0 });
    expect(page.status(), "document").toBe(302);
    expect(page.headers().location).toMatch(/\/admin\/login(\?|$)/);

    // Its data request (client navigation): a redirect to the login page, never the data.
    const data = await request.get(`${route.url}.data`, {
      maxRedirects: 0,
    });
    expect([202, 302, 401, 404]).toContain(data.status());
    if (data.status() !== 404) expect(await data.text()).toContain("/admin/login");

    // A file or API request: 401, no body worth having.
    const file = await request.get(route.url, { headers: { Accept: "*/*" }, maxRedirects: 0 });
    expect(file.status(), "resource").toBe(401);
    expect(file.headers()["content-type"] ?? "").not.toMatch(/image|json/);
    expect(file.headers()["cache-control"]).toBe("private, no-store");

    // An action (form post from the shop's own origin): refused before it runs.
    const post = await request.post(route.url, {
      form: { intent: "delete", id: SAMPLE_ID, orderId: SAMPLE_ID },
      headers: { Accept: "*/*" },
      maxRedirects: 0,
    });
    expect([401, 405]).toContain(post.status());
    const postPage = await request.post(route.url, {
      form: { intent: "delete", id: SAMPLE_ID },
      headers: { Accept: "text/html" },
      maxRedirects: 0,
    });
    expect(postPage.status()).toBe(302);
    expect(postPage.headers().location).toMatch(/\/admin\/login/);
  });
}

test("signed in, a forged cross-site post or one without the CSRF token is refused", async ({
  page,
  baseURL,
}) => {
  await signIn(page);
  const csrf = await page.locator('input[name="csrf"]').first().inputValue();
  expect(csrf).toMatch(/^[\w-]{43}$/);
  await page.goto("/admin/products");
  const ownProduct = { intent: "delete", id: SAMPLE_ID };

  const forged = await page.request.post("/admin/products", {
    form: { ...ownProduct, csrf },
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect([400, 403]).toContain(forged.status());

  const noToken = await page.request.post("/admin/products", {
    form: ownProduct,
    headers: { Origin: baseURL as string },
    maxRedirects: 0,
  });
  expect(noToken.status()).toBe(403);

  const wrongToken = await page.request.post("/admin/orders", {
    form: { intent: "confirm", orderId: SAMPLE_ID, csrf: "x".repeat(43) },
    headers: { Origin: baseURL as string },
    maxRedirects: 0,
  });
  expect(wrongToken.status()).toBe(403);

  // With the session's token from the shop's own origin the same action runs (and finds nothing).
  const genuine = await page.request.post("/admin/products", {
    form: { ...ownProduct, csrf },
    headers: { Origin: baseURL as string },
    maxRedirects: 0,
  });
  expect(genuine.status()).toBe(404);

  // Admin answers are never cached.
  const dashboard = await page.request.get("/admin/dashboard");
  expect(dashboard.headers()["cache-control"]).toBe("private, no-store");
});

test("a wrong password gets the first shop's 'Login Failed' / 'Invalid credentials'", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill("nobody-here@capitalgrown.test");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Login Failed")).toBeVisible();
  await expect(page.getByText("Invalid credentials").first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login/);
});
