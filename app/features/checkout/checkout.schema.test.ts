import { describe, expect, it } from "vitest";
import { formDataOf } from "#tests/support/form-data.ts";
import { cartLineInputSchema, checkoutSchema, checkoutValues, fieldErrorsOf } from "./checkout.schema.ts";

const line = (quantity: unknown) => ({
  productId: "7f1b3c1e-9a43-4c52-9d8a-1a2b3c4d5e6f",
  sizeId: "0b6a7f0e-3c2d-4e1f-8a9b-0c1d2e3f4a5b",
  quantity,
});

describe("checkout input (strict parsing)", () => {
  it("takes a quantity only as a JSON integer or a string of digits", () => {
    expect(cartLineInputSchema.parse(line(3)).quantity).toBe(3);
    expect(cartLineInputSchema.parse(line("12")).quantity).toBe(12);
    for (const bad of ["1e2", "0x10", true, " 3", "2.0", "3 ", "", "-1", 2.5, null, [3], "１"]) {
      const result = cartLineInputSchema.safeParse(line(bad));
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues[0]?.message, JSON.stringify(bad)).toMatch(
        /^Quantity must be (a whole number|at least 1)$/,
      );
    }
  });

  it("refuses a missing state with 'Choose a state' instead of assuming DC", () => {
    const form = formDataOf({
      name: "Ada",
      email: "ada@example.com",
      phone: "(202) 555-0100",
      address: "1 Main St",
      city: "Washington",
      zipCode: "20001",
      deliveryDate: "2026-11-23",
      timeSlot: "10:00 AM-12:00 PM",
      ageConfirmed: "on",
      idempotencyKey: "0123456789abcdef0123",
      items: JSON.stringify([line(1)]),
    });
    const missing = checkoutSchema.safeParse(checkoutValues(form));
    expect(missing.success).toBe(false);
    expect(missing.error && fieldErrorsOf(missing.error).state).toBe("Choose a state");
    form.set("state", "");
    expect(fieldErrorsOf(checkoutSchema.safeParse(checkoutValues(form)).error as never).state).toBe(
      "Choose a state",
    );
    form.set("state", "MD");
    expect(fieldErrorsOf(checkoutSchema.safeParse(checkoutValues(form)).error as never).state).toBe(
      "We deliver in DC and VA only",
    );
    form.set("state", "VA");
    expect(checkoutSchema.safeParse(checkoutValues(form)).data?.state).toBe("VA");
  });
});
