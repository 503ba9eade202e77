import { randomBytes } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { adminUsers } from "#app/db/schema.ts";
import { hashPassword } from "./passwords.server.ts";
import { endSessionsOf } from "./sessions.server.ts";

export function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}

export async function findAdminByEmail(executor: Executor, email: string) {
  const [user] = await executor
    .select()
    .from(adminUsers)
    .where(eq(sql`lower(${adminUsers.email})`, normaliseEmail(email)))
    .limit(1);
  return user;
}

/** Creates the admin, or sets a new password when the e-mail already exists. */
export async function upsertAdminUser(executor: Executor, email: string, password: string) {
  const passwordHash = await hashPassword(password);
  const existing = await findAdminByEmail(executor, email);
  if (existing) {
    // A password reset from the command line: whoever holds a session of the account is out.
    await executor.transaction(async (tx) => {
      await tx
        .update(adminUsers)
        .set({ passwordHash, updatedAt: new Date() })
        .where(eq(adminUsers.id, existing.id));
      await endSessionsOf(tx, existing.id);
    });
    return { id: existing.id, created: false };
  }
  const [created] = await executor
    .insert(adminUsers)
    .values({ email: normaliseEmail(email), passwordHash })
    .returning({ id: adminUsers.id });
  return { id: (created as { id: string }).id, created: true };
}

export type AdminBootstrap =
  | { status: "exists" }
  | { status: "created"; email: string; generatedPassword?: string };

/**
 * At start: when no admin exists, create one from ADMIN_EMAIL/ADMIN_PASSWORD, or admin@localhost
 * with a random password that the caller prints once.
 */
export async function ensureAdminAccount(
  executor: Executor,
  credentials: { email?: string; password?: string },
): Promise<AdminBootstrap> {
  const anyAdmin = async (reader: Executor) => {
    const [row] = await reader.select({ total: count() }).from(adminUsers);
    return (row?.total ?? 0) > 0;
  };
  if (await anyAdmin(executor)) return { status: "exists" };
  const email = normaliseEmail(credentials.email ?? "admin@localhost");
  const generatedPassword = credentials.password ? undefined : randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(credentials.password ?? (generatedPassword as string));
  // Instances starting together on one database: one creates the owner, the others find it.
  const created = await executor.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('capital-grown:first-admin', 0))`);
    if (await anyAdmin(tx)) return false;
    const rows = await tx
      .insert(adminUsers)
      .values({ email, passwordHash })
      .onConflictDoNothing()
      .returning({ id: adminUsers.id });
    return rows.length > 0;
  });
  if (!created) return { status: "exists" };
  return { status: "created", email, generatedPassword };
}
