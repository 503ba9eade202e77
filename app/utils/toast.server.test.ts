import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCookie } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { readOrCreateSecretFile } from "./cookie-secret.server.ts";
import { createToastCookie, readToast, redirectWithToast, toastHeader } from "./toast.server.ts";

beforeAll(() => {
  // This process's configuration is read once, at the first cookie: the secret comes from here.
  process.env.COOKIE_SECRET = "a-test-secret-that-is-long-enough-to-sign-cookies";
});

function requestWith(cookie: string) {
  return new Request("http://shop.test/", { headers: { Cookie: cookie } });
}

function cookiePair(setCookie: string) {
  return setCookie.split(";")[0] as string;
}

describe("the toast cookie", () => {
  it("carries a toast the shop signed to the next page, and clears it", async () => {
    const header = await toastHeader({ type: "success", title: "Login Successful" });
    expect(header).toMatch(/^cg_toast=[^;]+\.[^;]+; Max-Age=60; Path=\/; HttpOnly; SameSite=Lax$/);
    const { toast, headers } = await readToast(requestWith(cookiePair(header)));
    expect(toast).toMatchObject({ type: "success", title: "Login Successful" });
    expect(headers?.["Set-Cookie"]).toMatch(/^cg_toast=; Max-Age=0/);
  });

  it("names the page a redirect's toast is for: the redirect's path", async () => {
    const response = await redirectWithToast("/thank-you?order=abc", { title: "Your order is cancelled" });
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    const { toast } = await readToast(requestWith(cookiePair(setCookie)));
    expect(toast).toMatchObject({ title: "Your order is cancelled", path: "/thank-you" });
  });

  it("ignores a toast signed with another secret, an unsigned one and malformed values", async () => {
    const forger = createCookie("cg_toast", { secrets: ["not-the-shop-secret-at-all-nope-nope"] });
    const forged = await forger.serialize(JSON.stringify({ type: "error", title: "Your account is locked" }));
    const unsigned = await createCookie("cg_toast").serialize(JSON.stringify({ title: "Pay here" }));
    for (const cookie of [
      cookiePair(forged),
      cookiePair(unsigned),
      "cg_toast=%%%",
      'cg_toast="',
      "cg_toast=abc.def.ghi",
      "cg_toast=e30.",
      `cg_toast=${"A".repeat(8000)}`,
      "cg_toast=%E0%A4%A",
      "cg_toast",
    ]) {
      const { toast } = await readToast(requestWith(cookie));
      expect(toast, cookie).toBeNull();
    }
  });

  it("is Secure when the shop's public address is https", async () => {
    const secure = createToastCookie({ secret: "s".repeat(32), secure: true });
    expect(await secure.serialize("x")).toContain("; Secure");
    const plain = createToastCookie({ secret: "s".repeat(32), secure: false });
    expect(await plain.serialize("x")).not.toContain("Secure");
  });

  it("keeps a generated secret in DATA_DIR/keys, private to the shop's user, across restarts", () => {
    const keys = path.join(mkdtempSync(path.join(tmpdir(), "cg-keys-")), "keys");
    const first = readOrCreateSecretFile(keys);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(statSync(keys).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(keys, "cookie-secret")).mode & 0o777).toBe(0o600);
    expect(readOrCreateSecretFile(keys)).toBe(first);
    expect(readFileSync(path.join(keys, "cookie-secret"), "utf8").trim()).toBe(first);
    // Another key in the same folder (the ID photo key) is left alone.
    writeFileSync(path.join(keys, "id-photo.key"), "other", { mode: 0o600 });
    expect(readOrCreateSecretFile(keys)).toBe(first);
    expect(readFileSync(path.join(keys, "id-photo.key"), "utf8")).toBe("other");
  });
});
