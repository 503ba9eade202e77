import { redirect } from "react-router";
import { requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { homeOf } from "#app/features/staff/admin-routes.ts";
import type { Route } from "./+types/index";

export function loader({ context }: Route.LoaderArgs) {
  return redirect(homeOf(requireAdmin(context).role));
}
