import { redirect } from "react-router";
import { homeOf } from "#app/features/staff/admin-routes.ts";
import { requireAdmin } from "#app/features/staff/guard.server.ts";
import type { Route } from "./+types/index";

export function loader({ context }: Route.LoaderArgs) {
  return redirect(homeOf(requireAdmin(context).role));
}
