import { describe, expect, it } from "vitest";
import { alertTitle, boardHref, boardQuery, mapSearchUrl, slotOrder } from "./day-board.ts";

// 11:30 PM on Monday in New York is already Tuesday in UTC: the board's today is the store's.
const LATE_MONDAY = new Date("2026-11-24T04:30:00Z");

describe("the day's work rules", () => {
  it("reads the board's date and slot from the URL, today in the store's zone by default", () => {
    expect(boardQuery(new URL("http://shop/admin/today"), LATE_MONDAY)).toEqual({
      date: "2026-11-23",
      isToday: true,
    });
    expect(
      boardQuery(new URL("http://shop/admin/today?date=2026-11-25&slot=2%3A00+PM-4%3A00+PM"), LATE_MONDAY),
    ).toEqual({
      date: "2026-11-25",
      slot: "2:00 PM-4:00 PM",
      isToday: false,
    });
    // Not a calendar date: today instead of an error page.
    for (const bad of ["2026-02-30", "tomorrow", "2026-1-5", "'; DROP TABLE orders"]) {
      expect(
        boardQuery(new URL(`http://shop/admin/today?date=${encodeURIComponent(bad)}`), LATE_MONDAY).date,
      ).toBe("2026-11-23");
    }
    expect(
      boardQuery(new URL(`http://shop/admin/today?slot=${"x".repeat(41)}`), LATE_MONDAY).slot,
    ).toBeUndefined();
    // The database refuses a NUL in a text value: such a slot is no slot, not a failed query.
    for (const bad of ["%00", "2%3A00+PM%00", "%1b%5B2J"]) {
      expect(
        boardQuery(new URL(`http://shop/admin/today?slot=${bad}`), LATE_MONDAY).slot,
        bad,
      ).toBeUndefined();
    }
  });

  it("orders the five slots through the day, other labels after them", () => {
    const labels = ["6:00 PM-8:00 PM", "legacy", "10:00 AM-12:00 PM", "2:00 PM-4:00 PM"];
    expect([...labels].sort((a, b) => slotOrder(a) - slotOrder(b))).toEqual([
      "10:00 AM-12:00 PM",
      "2:00 PM-4:00 PM",
      "6:00 PM-8:00 PM",
      "legacy",
    ]);
  });

  it("links an address to a map search and keeps the board's date in its links", () => {
    expect(mapSearchUrl("12 Main St NW, Washington, DC 20001")).toBe(
      "https://www.google.com/maps/search/?api=1&query=12%20Main%20St%20NW%2C%20Washington%2C%20DC%2020001",
    );
    expect(boardHref("/admin/today/pick-list", "2026-11-25", "2:00 PM-4:00 PM")).toBe(
      "/admin/today/pick-list?date=2026-11-25&slot=2%3A00+PM-4%3A00+PM",
    );
  });

  it("puts the count of new orders in front of the tab title, once", () => {
    expect(alertTitle("Incoming Orders | Admin", 2)).toBe("(2) New orders · Incoming Orders | Admin");
    expect(alertTitle("(2) New orders · Incoming Orders | Admin", 3)).toBe(
      "(3) New orders · Incoming Orders | Admin",
    );
    expect(alertTitle("(3) New orders · Today | Admin", 0)).toBe("Today | Admin");
  });
});
