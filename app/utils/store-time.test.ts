import { describe, expect, it } from "vitest";
import {
  addStoreDays,
  formatStoreDate,
  isStoreDate,
  nextDate,
  parseStoreDate,
  storeClock,
  storeYear,
  weekday,
} from "./store-time.ts";

describe("storeClock", () => {
  it("reads New York's wall clock across the end of daylight saving time, minute by minute", () => {
    // 1 Nov 2026: at 06:00 UTC New York's clocks go back from 2:00 EDT to 1:00 EST.
    expect(storeClock(new Date("2026-11-01T05:59:30Z"))).toEqual({
      date: "2026-11-01",
      minutes: 1 * 60 + 59,
    });
    expect(storeClock(new Date("2026-11-01T05:59:59Z"))).toEqual({
      date: "2026-11-01",
      minutes: 1 * 60 + 59,
    });
    expect(storeClock(new Date("2026-11-01T06:00:00Z"))).toEqual({ date: "2026-11-01", minutes: 1 * 60 });
    expect(storeClock(new Date("2026-11-02T04:59:00Z"))).toEqual({
      date: "2026-11-01",
      minutes: 23 * 60 + 59,
    });
    expect(storeClock(new Date("2026-11-02T05:00:00Z"))).toEqual({ date: "2026-11-02", minutes: 0 });
    // Earlier instants after later ones: the kept minute is not reused for another minute.
    expect(storeClock(new Date("2026-11-01T05:59:00Z"))).toEqual({
      date: "2026-11-01",
      minutes: 1 * 60 + 59,
    });
  });
});

describe("calendar dates in the store's zone", () => {
  it("reads only real yyyy-MM-dd dates", () => {
    expect(isStoreDate("2026-11-28")).toBe(true);
    expect(isStoreDate("2028-02-29")).toBe(true);
    for (const text of [
      "2026-02-29",
      "2026-02-30",
      "2026-13-01",
      "2026-1-05",
      "2026-11-28T10:00",
      "20261128",
      "",
      "x",
    ]) {
      expect(isStoreDate(text), text).toBe(false);
    }
    // Midnight in New York, whatever the server's zone.
    expect(parseStoreDate("2026-07-04")?.getTime()).toBe(Date.parse("2026-07-04T04:00:00Z"));
    expect(parseStoreDate("2026-12-25")?.getTime()).toBe(Date.parse("2026-12-25T05:00:00Z"));
  });

  it("counts days across months, years and the changes of the clocks", () => {
    expect(nextDate("2026-11-30")).toBe("2026-12-01");
    expect(nextDate("2026-12-31")).toBe("2027-01-01");
    expect(nextDate("2026-10-31")).toBe("2026-11-01");
    expect(nextDate("2026-11-01")).toBe("2026-11-02"); // a 25-hour day
    expect(nextDate("2026-03-08")).toBe("2026-03-09"); // a 23-hour day
    expect(addStoreDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addStoreDays("2026-01-01", -365)).toBe("2025-01-01");
    expect(() => nextDate("2026-02-30")).toThrow(RangeError);
  });

  it("names weekdays and days as staff and shoppers read them", () => {
    expect(weekday("2026-11-29")).toBe(0); // a Sunday
    expect(weekday("2026-11-28")).toBe(6);
    expect(weekday("2026-03-08")).toBe(0);
    expect(formatStoreDate("2026-11-28")).toBe("Sat, Nov 28");
    expect(formatStoreDate("2026-03-08")).toBe("Sun, Mar 8");
  });

  it("turns the year at midnight in New York, not in UTC", () => {
    expect(storeYear(new Date("2027-01-01T04:59:00Z"))).toBe(2026);
    expect(storeYear(new Date("2027-01-01T05:00:00Z"))).toBe(2027);
  });
});
