import { expect, it } from "vitest";
import { adminUsers } from "#app/db/schema.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { ensureAdminAccount } from "./admin-users.server.ts";
import { verifyPassword } from "./passwords.server.ts";

describeEachDatabase("the first admin account", (database) => {
  it("is created once when several starts ask for it at the same moment, and reported by one of them", async () => {
    const { db } = database();
    // As instances starting together would: each with no account seen yet, each its own password.
    const results = await Promise.all(Array.from({ length: 6 }, () => ensureAdminAccount(db, {})));
    const created = results.filter((result) => result.status === "created");
    expect(created).toHaveLength(1);
    const rows = await db.select().from(adminUsers);
    expect(rows.map(({ email, role }) => ({ email, role }))).toEqual([
      { email: "admin@localhost", role: "owner" },
    ]);
    const printed = created[0]?.status === "created" ? created[0].generatedPassword : undefined;
    expect(await verifyPassword(rows[0]?.passwordHash as string, printed as string)).toBe(true);

    expect(await ensureAdminAccount(db, { email: "other@shop.test", password: "another-password" })).toEqual({
      status: "exists",
    });
  });
});
