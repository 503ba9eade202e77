import { redirect } from "react-router";
import { db } from "#app/db/client.server.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import {
  clearedSessionCookies,
  deleteSession,
  readSessionToken,
} from "#app/features/staff/sessions.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import type { Route } from "./+types/logout";

export function loader() {
  return redirect("/admin/dashboard");
}

/** 'Sign Out': ends the session in the database and clears the cookie (K-2, P-5). */
export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context);
  try {
    await deleteSession(await db(), readSessionToken(request));
  } catch (error) {
    log.error("Sign-out failed", { error: errorMessage(error) });
  }
  const headers = new Headers();
  for (const cookie of clearedSessionCookies()) headers.append("Set-Cookie", cookie);
  return redirect("/admin/login", { headers });
}
