/** Helpers for the admin stories (kept beside them; the shared support folder belongs to the lead). */
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";

export async function signIn(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

export async function pngBytes(width: number, height: number, colour = "#4f9270") {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** Tomorrow in New York: every day's 12:00 PM-2:00 PM slot is open for it (decision 13). */
export function tomorrowInStore() {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: STORE_TIME_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    })
      .formatToParts(new Date(Date.now() + 24 * 3_600_000))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Places an order through the real checkout endpoint (as a browser without JavaScript would). */
export async function placeOrderByPost(
  request: APIRequestContext,
  order: {
    name: string;
    productId: string;
    sizeId: string;
    quantity: number;
    notes?: string;
    phone?: string;
    email?: string;
  },
): Promise<string> {
  const response = await request.post("/checkout", {
    maxRedirects: 0,
    multipart: {
      name: order.name,
      email: order.email ?? "e2e-admin-story@example.com",
      phone: order.phone ?? "(202) 555-0123",
      address: "12 Admin Story St NW",
      city: "Washington",
      state: "DC",
      zipCode: "20001",
      notes: order.notes ?? "",
      deliveryDate: tomorrowInStore(),
      timeSlot: "12:00 PM-2:00 PM",
      ageConfirmed: "on",
      idempotencyKey: `admin-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`,
      items: JSON.stringify([{ productId: order.productId, sizeId: order.sizeId, quantity: order.quantity }]),
      idFront: { name: "id.png", mimeType: "image/png", buffer: await pngBytes(600, 380, "#aed1bb") },
    },
  });
  expect(response.status(), await response.text().catch(() => "")).toBe(302);
  expect(response.headers().location).toMatch(/^\/thank-you\?order=/);
  // The customer's order page.
  return response.headers().location as string;
}
