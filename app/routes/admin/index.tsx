import { redirect } from "react-router";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import type { Route } from "./+types/index";

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return redirect("/admin/dashboard");
}
