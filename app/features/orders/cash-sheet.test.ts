import { describe, expect, it } from "vitest";
import {
  type CashLine,
  cashAmountCents,
  cashDifferenceCents,
  cashFigures,
  changeGivenCents,
  differenceText,
  MAX_CASH_CENTS,
} from "./cash-sheet.ts";

const line = (totalCents: number, receivedCents: number | null): CashLine => ({
  orderId: crypto.randomUUID(),
  customerName: "Bo",
  totalCents,
  receivedCents,
});

describe("a driver's cash sheet", () => {
  it("expects the float plus every delivered order's total, whatever the customers handed over", () => {
    const figures = cashFigures(5000, [line(8650, 10000), line(9125, null), line(12000, 12000)]);
    expect(figures).toEqual({
      floatCents: 5000,
      collectedCents: 8650 + 9125 + 12000,
      changeCents: 1350,
      expectedCents: 5000 + 29775,
    });
  });

  it("with no float and no delivery expects nothing", () => {
    expect(cashFigures(0, [])).toEqual({
      floatCents: 0,
      collectedCents: 0,
      changeCents: 0,
      expectedCents: 0,
    });
  });

  it("gives change only for cash handed over beyond the total", () => {
    expect(changeGivenCents({ totalCents: 8650, receivedCents: 10000 })).toBe(1350);
    expect(changeGivenCents({ totalCents: 8650, receivedCents: 8650 })).toBe(0);
    expect(changeGivenCents({ totalCents: 8650, receivedCents: null })).toBe(0);
    // A short payment is no change (the order's total is still what is expected back).
    expect(changeGivenCents({ totalCents: 8650, receivedCents: 8000 })).toBe(0);
  });

  it("counts in whole cents: 100 orders of $80.10 with a $0.30 float add up to the cent", () => {
    const lines = Array.from({ length: 100 }, () => line(8010, 10000));
    const figures = cashFigures(30, lines);
    expect(figures.collectedCents).toBe(801_000);
    expect(figures.changeCents).toBe(199_000);
    expect(figures.expectedCents).toBe(801_030);
    // The same sums in floating-point dollars drift: the reason every figure is integer cents.
    const dollars = Array.from({ length: 100 }, () => 80.1).reduce((sum, value) => sum + value, 0.3);
    expect(dollars).not.toBe(8010.3);
  });

  it("reads the difference as counted minus expected: short, over or even", () => {
    expect(cashDifferenceCents(20000, 19500)).toBe(-500);
    expect(differenceText(-500)).toBe("Short $5.00");
    expect(differenceText(cashDifferenceCents(20000, 20025))).toBe("Over $0.25");
    expect(differenceText(0)).toBe("Even");
  });

  it("reads typed amounts to the cent and refuses what it would have to round", () => {
    expect(cashAmountCents("120")).toBe(12000);
    expect(cashAmountCents("120.5")).toBe(12050);
    expect(cashAmountCents("$1,200.05")).toBe(120005);
    expect(cashAmountCents("0.29")).toBe(29);
    expect(cashAmountCents("19.99")).toBe(1999);
    expect(cashAmountCents("19.999")).toBeNull();
    expect(cashAmountCents("-5")).toBeNull();
    expect(cashAmountCents("")).toBeNull();
    expect(cashAmountCents(null)).toBeNull();
    expect(cashAmountCents("twelve")).toBeNull();
    expect(cashAmountCents(String(MAX_CASH_CENTS / 100))).toBe(MAX_CASH_CENTS);
    expect(cashAmountCents(String(MAX_CASH_CENTS / 100 + 1))).toBeNull();
  });
});
