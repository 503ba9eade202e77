import { describe, expect, it } from "vitest";
import { changeDueCents, changeToBringText } from "./cash-change.ts";

describe("cash change (P-24)", () => {
  it("tells the change to bring only when the shopper pays with more than the total", () => {
    expect(changeDueCents(8650, 10000)).toBe(1350);
    expect(changeDueCents(8650, 8650)).toBeNull();
    expect(changeDueCents(8650, 5000)).toBeNull();
    expect(changeDueCents(8650, null)).toBeNull();
    expect(changeDueCents(8650, undefined)).toBeNull();
  });

  it("words it for the order card, the shop's e-mail and the driver slip", () => {
    expect(changeToBringText(8650, 10000)).toBe("Bring $13.50 change");
    expect(changeToBringText(8650, null)).toBeNull();
  });
});
