import { describe, expect, it } from "vitest";
import { loginSchema } from "./login.schema.ts";

describe("admin login form", () => {
  it("accepts the account made at first start, admin@localhost", () => {
    const parsed = loginSchema.safeParse({ email: "admin@localhost", password: "secret" });
    expect(parsed.success).toBe(true);
  });

  it.each([
    [{ email: "", password: "x" }, "Email is required"],
    [{ email: "not an email", password: "x" }, "Please enter a valid email address"],
    [{ email: "owner@capitalgrown.test", password: "" }, "Password is required"],
  ])("refuses %o with '%s'", (input, message) => {
    const parsed = loginSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain(message);
  });
});
