/**
 * Proof at the door (P-32), the pure part shared by the phone's screens and the server: the age a
 * typed date of birth gives on the store's date, the change a cash amount leaves, and the words of
 * the 'Could not deliver' reasons. Integer cents, plain dates (YYYY-MM-DD), no database.
 */
import { formatCents } from "#app/utils/money.ts";
import { storeDay } from "#app/utils/store-time.ts";
import type { DeliveryFailureReason } from "./driver-actions.schema.ts";

export const MINIMUM_AGE = 21;

function parts(date: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // A real calendar date only: 2023-02-29 or 2024-13-01 is a typo, not a birthday.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return null;
  return [year, month, day];
}

/**
 * Whole years from `dateOfBirth` to `today` (both YYYY-MM-DD), or null for a date that is not a
 * calendar date or lies after today. A birthday comes when the month and day are reached, so
 * someone born on 29 February turns a year older on 1 March in a year without one.
 */
export function ageOn(dateOfBirth: string, today: string): number | null {
  const born = parts(dateOfBirth);
  const now = parts(today);
  if (!born || !now) return null;
  let age = now[0] - born[0];
  if (now[1] < born[1] || (now[1] === born[1] && now[2] < born[2])) age -= 1;
  return age < 0 ? null : age;
}

export type AgeCheck =
  | { ok: true; age: number }
  | { ok: false; reason: "invalid" | "under-21"; age: number | null; message: string };

/** The ID check on the store's date (`now` read in the store's time zone). */
export function checkAge(dateOfBirth: string, now: Date = new Date()): AgeCheck {
  const age = ageOn(dateOfBirth, storeDay(now));
  if (age === null || age > 120)
    return { ok: false, reason: "invalid", age: null, message: "Enter the date of birth shown on the ID" };
  if (age < MINIMUM_AGE)
    return {
      ok: false,
      reason: "under-21",
      age,
      message: `Under 21 (${age}): do not hand over the order`,
    };
  return { ok: true, age };
}

export type CashCheck =
  | { ok: true; changeCents: number }
  | { ok: false; shortCents: number; message: string };

/** The change to give for the cash handed over; less than the total is refused, exact cash gives none. */
export function cashChange(totalCents: number, receivedCents: number): CashCheck {
  const change = Math.round(receivedCents) - Math.round(totalCents);
  if (change < 0)
    return {
      ok: false,
      shortCents: -change,
      message: `Collect at least ${formatCents(totalCents)}: ${formatCents(-change)} short`,
    };
  return { ok: true, changeCents: change };
}

/**
 * Cents of a cash amount the driver typed ("100", "$100.50", "62.499"): rounded to the nearest
 * cent, or null for what is not an amount.
 */
export function cashCents(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, "");
  const match = /^(\d{1,7})(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  // Digit by digit, not through floating point (1.005 × 100 is 100.49999… there).
  const fraction = (match[2] ?? "").padEnd(3, "0");
  const cents = Number(match[1]) * 100 + Number(fraction.slice(0, 2));
  return Number(fraction[2]) >= 5 ? cents + 1 : cents;
}

/** The reasons as the driver and staff read them. */
export const FAILURE_REASON_LABELS: Record<DeliveryFailureReason, string> = {
  "customer-not-home": "Customer not home",
  "no-valid-id": "No valid ID",
  "under-21": "Under 21",
  refused: "Refused",
  "address-not-reachable": "Address not reachable",
  other: "Other",
};

/** 'Customer not home', or 'Other: gate locked' when the driver wrote a note for Other. */
export function failureText(reason: DeliveryFailureReason, note?: string | null) {
  const text = (note ?? "").trim();
  return text ? `${FAILURE_REASON_LABELS[reason]}: ${text}` : FAILURE_REASON_LABELS[reason];
}
