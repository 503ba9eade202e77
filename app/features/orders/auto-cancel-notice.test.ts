import { describe, expect, it } from "vitest";
import { autoCancelNotice } from "./auto-cancel-notice.ts";

// Monday 2026-11-23 in New York (UTC-5): 1:29 PM, 1:30 PM and 2:05 PM there.
const at = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00-05:00`);
const order = (
  status: "pending" | "confirmed",
  deliveryDate = "2026-11-23",
  deliveryTime = "12:00 PM-2:00 PM",
) => ({
  status,
  deliveryDate,
  deliveryTime,
});

describe("the auto-cancel warning", () => {
  it("flags a pending order from 30 minutes before its slot ends, with the time it will be cancelled", () => {
    expect(autoCancelNotice(order("pending"), at("13:29"))).toBeNull();
    expect(autoCancelNotice(order("pending"), at("13:30"))).toBe("Auto-cancels at 2:00 PM if not confirmed");
    // Past the end, until the job (every 5 minutes) has cancelled it.
    expect(autoCancelNotice(order("pending"), at("14:05"))).toBe("Auto-cancels at 2:00 PM if not confirmed");
    expect(autoCancelNotice(order("pending", "2026-11-23", "10:00 AM-12:00 PM"), at("11:45"))).toBe(
      "Auto-cancels at 12:00 PM if not confirmed",
    );
  });

  it("leaves confirmed orders and later days alone", () => {
    expect(autoCancelNotice(order("confirmed"), at("13:45"))).toBeNull();
    expect(autoCancelNotice(order("pending", "2026-11-24"), at("13:45"))).toBeNull();
  });
});
