import { expect, it } from "vitest";
import { SAMPLE_LOW_STOCK, SAMPLE_STORE } from "#app/demo/email-previews.server.ts";
import { lowStockDigestEmail } from "./low-stock-email.server.tsx";

it("the low-stock digest names the store, lists sold-out first with edit links, and escapes names", async () => {
  const mail = await lowStockDigestEmail(SAMPLE_LOW_STOCK, { ...SAMPLE_STORE, storeName: "Rowhouse Greens" });
  expect(mail.subject).toBe("Low stock at Rowhouse Greens: 3 sizes (1 sold out)");
  const lines = mail.text.split("\n");
  const blue = lines.findIndex((line) =>
    line.startsWith(
      "Blue Dream (28g) — Sold out: https://shop.example/admin/products/edit/0f6b1c9e-1111-4222-8333-944445555666",
    ),
  );
  const gummies = lines.findIndex((line) => line.startsWith("Gummies (10 pack) — 5 left: "));
  expect(blue).toBeGreaterThanOrEqual(0);
  expect(gummies).toBeGreaterThan(blue);
  expect(mail.text).toContain("Open the dashboard: https://shop.example/admin/dashboard");
  expect(mail.html).toContain("Rowhouse Greens");
  expect(mail.html).not.toContain("<script>");
  expect(mail.html).toContain("&lt;script&gt;");
});
