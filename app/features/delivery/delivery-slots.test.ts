import { describe, expect, it } from "vitest";
import { storeClock, storeDay } from "#app/utils/store-time.ts";
import { availableSlots, deliveryChoiceProblem, deliveryOptions } from "./delivery-slots.ts";

const ALL = [
  "10:00 AM-12:00 PM",
  "12:00 PM-2:00 PM",
  "2:00 PM-4:00 PM",
  "4:00 PM-6:00 PM",
  "6:00 PM-8:00 PM",
];

describe("delivery dates and slots (the store time zone)", () => {
  it("reads the calendar in New York whatever the server's zone", () => {
    // 02:30 UTC on Tuesday is still Monday evening in New York (EST, UTC-5).
    expect(storeClock(new Date("2026-11-24T02:30:00Z"))).toEqual({
      date: "2026-11-23",
      minutes: 21 * 60 + 30,
    });
    // Summer time (EDT, UTC-4).
    expect(storeClock(new Date("2026-07-01T14:00:00Z")).minutes).toBe(10 * 60);
    expect(storeDay(new Date("2026-11-24T04:59:00Z"))).toBe("2026-11-23");
  });

  it("offers all five slots on a weekday morning, today by default", () => {
    const now = new Date("2026-11-23T13:00:00Z"); // Mon 8:00 AM
    const { days, defaultDate } = deliveryOptions(now);
    expect(days.map((day) => [day.relative, day.date])).toEqual([
      ["Today", "2026-11-23"],
      ["Tomorrow", "2026-11-24"],
    ]);
    expect(days[0]?.slots).toEqual(ALL);
    expect(defaultDate).toBe("2026-11-23");
  });

  it("drops today's slots that have ended", () => {
    const now = new Date("2026-11-23T19:00:00Z"); // Mon 2:00 PM: the 12–2 slot has just ended
    expect(availableSlots("2026-11-23", now)).toEqual(ALL.slice(2));
    expect(availableSlots("2026-11-24", now)).toEqual(ALL);
  });

  it("defaults to tomorrow once no slot is left today", () => {
    const now = new Date("2026-11-24T01:30:00Z"); // Mon 8:30 PM
    const { days, defaultDate } = deliveryOptions(now);
    expect(days[0]?.slots).toEqual([]);
    expect(defaultDate).toBe("2026-11-24");
  });

  it("leaves out 10–12 and 6–8 on Sundays", () => {
    const saturdayNight = new Date("2026-11-22T02:00:00Z"); // Sat 9:00 PM; tomorrow is Sunday the 22nd
    expect(availableSlots("2026-11-22", saturdayNight)).toEqual(ALL.slice(1, 4));
  });

  it("refuses other dates and unavailable slots on the server", () => {
    const now = new Date("2026-11-23T19:00:00Z");
    expect(deliveryChoiceProblem("2026-11-23", "2:00 PM-4:00 PM", now)).toBeNull();
    expect(deliveryChoiceProblem("2026-11-25", "2:00 PM-4:00 PM", now)?.field).toBe("deliveryDate");
    expect(deliveryChoiceProblem("2026-11-22", "2:00 PM-4:00 PM", now)?.field).toBe("deliveryDate");
    expect(deliveryChoiceProblem("2026-11-23", "10:00 AM-12:00 PM", now)?.field).toBe("timeSlot");
  });
});
