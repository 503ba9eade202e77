/**
 * Cash on delivery (P-24): the shopper may say what they will pay with, so the driver
 * brings change. Read by the checkout (the check), the admin order card, the shop's new-order
 * e-mail and the driver slip. Pure, integer cents.
 */
import { formatCents } from "#app/utils/money.ts";

/** The change to bring, or null when the shopper gave no amount or the exact total. */
export function changeDueCents(totalCents: number, payWithCents: number | null | undefined): number | null {
  if (payWithCents === null || payWithCents === undefined) return null;
  const change = payWithCents - totalCents;
  return change > 0 ? change : null;
}

/** 'Bring $13.50 change', or null when there is none to bring. */
export function changeToBringText(totalCents: number, payWithCents: number | null | undefined) {
  const change = changeDueCents(totalCents, payWithCents);
  return change === null ? null : `Bring ${formatCents(change)} change`;
}

/** The refusal of an amount below the total. */
export function payWithTooLowMessage(totalCents: number) {
  return `Enter at least your total of ${formatCents(totalCents)}, or leave this empty.`;
}

/** Largest amount accepted: $10,000 (a typo guard; no order comes near it). */
export const MAX_PAY_WITH_CENTS = 1_000_000;
