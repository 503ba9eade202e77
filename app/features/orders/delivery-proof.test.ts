import { describe, expect, it } from "vitest";
import { ageOn, cashCents, cashChange, checkAge, failureText } from "./delivery-proof.ts";

describe("ageOn", () => {
  it("turns 21 on the 21st birthday itself, not the day before", () => {
    expect(ageOn("2005-06-15", "2026-06-14")).toBe(20);
    expect(ageOn("2005-06-15", "2026-06-15")).toBe(21);
    expect(ageOn("2005-06-15", "2026-06-16")).toBe(21);
  });

  it("counts a 29 February birthday on 1 March in a year without 29 February", () => {
    expect(ageOn("2004-02-29", "2025-02-28")).toBe(20);
    expect(ageOn("2004-02-29", "2025-03-01")).toBe(21);
  });

  it("counts a 29 February birthday on the day in a leap year", () => {
    expect(ageOn("2004-02-29", "2028-02-28")).toBe(23);
    expect(ageOn("2004-02-29", "2028-02-29")).toBe(24);
  });

  it("refuses dates that are not calendar dates or lie ahead", () => {
    expect(ageOn("2003-02-29", "2026-06-01")).toBeNull();
    expect(ageOn("2001-13-01", "2026-06-01")).toBeNull();
    expect(ageOn("06/15/2001", "2026-06-01")).toBeNull();
    expect(ageOn("2027-01-01", "2026-06-01")).toBeNull();
  });
});

describe("checkAge on the store's date", () => {
  // 03:30 UTC on 15 June is still 14 June in New York (UTC−4 in summer).
  const lateEveningInNewYork = new Date("2026-06-15T03:30:00Z");

  it("uses the store's date, not UTC's: the birthday has not come yet at 23:30 in New York", () => {
    const check = checkAge("2005-06-15", lateEveningInNewYork);
    expect(check).toMatchObject({ ok: false, reason: "under-21", age: 20 });
  });

  it("passes on the 21st birthday in the store's time zone", () => {
    expect(checkAge("2005-06-15", new Date("2026-06-15T04:30:00Z"))).toEqual({ ok: true, age: 21 });
  });

  it("says what is wrong with a date that is not one", () => {
    expect(checkAge("1890-01-01", lateEveningInNewYork)).toMatchObject({ ok: false, reason: "invalid" });
    expect(checkAge("2030-01-01", lateEveningInNewYork)).toMatchObject({ ok: false, reason: "invalid" });
  });
});

describe("cash and change", () => {
  it("computes the change from the cash handed over", () => {
    expect(cashChange(8650, 10000)).toEqual({ ok: true, changeCents: 1350 });
  });

  it("gives no change for exact cash", () => {
    expect(cashChange(8650, 8650)).toEqual({ ok: true, changeCents: 0 });
  });

  it("refuses too little cash and says how much is missing", () => {
    expect(cashChange(8650, 8600)).toEqual({
      ok: false,
      shortCents: 50,
      message: "Collect at least $86.50: $0.50 short",
    });
  });

  it("rounds a typed amount to the nearest cent", () => {
    expect(cashCents("100")).toBe(10000);
    expect(cashCents("$1,000.5")).toBe(100050);
    expect(cashCents("86.499")).toBe(8650);
    expect(cashCents("86.494")).toBe(8649);
    expect(cashCents("0.1")).toBe(10);
    expect(cashCents("1.005")).toBe(101);
    expect(cashCents("ten")).toBeNull();
    expect(cashCents("-5")).toBeNull();
    expect(cashCents("")).toBeNull();
  });
});

it("reads a failure reason in the driver's words, with the note of Other", () => {
  expect(failureText("customer-not-home")).toBe("Customer not home");
  expect(failureText("other", " Gate locked ")).toBe("Other: Gate locked");
});
