/**
 * A driver's cash for one shift (P-33), pure and in integer cents: the float taken out, the cash
 * collected per delivered order (the order's total: change comes out of what the customer hands
 * over), the change given, the cash expected back and the difference with the counted cash.
 * Shared by the phone, the today board, the dashboard and the daily cash report (record 052).
 */
import { changeDueCents } from "#app/features/delivery/cash-change.ts";
import { dollarsToCents, formatCents } from "#app/utils/money.ts";

/** Largest float or count accepted: $100,000 (a typo guard; a shift's cash never comes near it). */
export const MAX_CASH_CENTS = 10_000_000;

/** One delivered order on the sheet. `receivedCents`: what the customer handed over, when known. */
export type CashLine = {
  orderId: string;
  customerName: string;
  totalCents: number;
  receivedCents: number | null;
};

export type CashFigures = {
  floatCents: number;
  collectedCents: number;
  changeCents: number;
  expectedCents: number;
};

/** Change given at one door: what the customer handed over beyond the total, else nothing. */
export function changeGivenCents(line: Pick<CashLine, "totalCents" | "receivedCents">): number {
  return changeDueCents(line.totalCents, line.receivedCents) ?? 0;
}

/** Collected, change given and expected (float + collected) for a float and the delivered orders. */
export function cashFigures(floatCents: number, lines: readonly CashLine[]): CashFigures {
  let collectedCents = 0;
  let changeCents = 0;
  for (const line of lines) {
    collectedCents += line.totalCents;
    changeCents += changeGivenCents(line);
  }
  return { floatCents, collectedCents, changeCents, expectedCents: floatCents + collectedCents };
}

/** Counted minus expected: negative when the driver hands in less (short), positive when more. */
export function cashDifferenceCents(expectedCents: number, countedCents: number) {
  return countedCents - expectedCents;
}

/** 'Short $5.00', 'Over $0.25' or 'Even'. */
export function differenceText(differenceCents: number) {
  if (differenceCents === 0) return "Even";
  return `${differenceCents < 0 ? "Short" : "Over"} ${formatCents(Math.abs(differenceCents))}`;
}

/**
 * A cash amount typed by a person ('120', '120.5', '$1,200.05') in cents, or null: empty, more
 * than two decimals (no rounding of cash: a typo is refused, not guessed), negative or too large.
 */
export function cashAmountCents(value: FormDataEntryValue | null): number | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const cents = dollarsToCents(value);
  if (cents === undefined || cents > MAX_CASH_CENTS) return null;
  return cents;
}

export const CASH_AMOUNT_MESSAGE = "Enter the amount in dollars and cents, for example 120.50";
