import { describe, expect, it } from "vitest";
import { storeClock } from "./store-time.ts";

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
