import { describe, expect, it } from "vitest";
import { formatCents } from "./money.ts";

describe("formatCents", () => {
  it("shows dollars with two decimals and thousands separators", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(2500)).toBe("$25.00");
    expect(formatCents(99999)).toBe("$999.99");
    expect(formatCents(100000)).toBe("$1,000.00");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
    expect(formatCents(-8050)).toBe("-$80.50");
  });
});
