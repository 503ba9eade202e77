/** Helpers for the admin stories (kept beside them; the shared support folder belongs to the lead). */
import { type APIRequestContext, type Cookie, expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { rememberTotpSecret, signInAs } from "./support/admin-sign-in.ts";
import { E2E_ADMIN } from "./support/global-setup.ts";

/** This worker's session of the shared e2e admin, reused while it lasts (a code's step is used once). */
let workerSession: Cookie[] = [];

/** The shared e2e admin's second factor, set up by global setup. */
export function rememberE2eAdminSecret() {
  const secret = process.env.E2E_ADMIN_TOTP_SECRET;
  if (secret && process.env.E2E_BASE_URL)
    rememberTotpSecret(process.env.E2E_BASE_URL, E2E_ADMIN.email, secret);
}

/**
 * Signs the page in as the shared e2e admin and opens the dashboard. Reuses this worker's session
 * when it is still valid; `fresh` always goes through the sign-in form (password and code).
 */
export async function signIn(page: Page, options: { fresh?: boolean } = {}) {
  if (!options.fresh && workerSession.length > 0) {
    await page.context().addCookies(workerSession);
    await page.goto("/admin/dashboard");
    if (new URL(page.url()).pathname === "/admin/dashboard") return;
  }
  rememberE2eAdminSecret();
  await signInAs(page, E2E_ADMIN);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  workerSession = (await page.context().cookies()).filter((cookie) => cookie.name === "cg_admin_session");
}

export async function pngBytes(width: number, height: number, colour = "#4f9270") {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** Tomorrow in New York: every day's 12:00 PM-2:00 PM slot is open for it (P-13). */
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
    /** 'I'll pay with', in dollars. */
    payWith?: string;
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
      payWith: order.payWith ?? "",
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
