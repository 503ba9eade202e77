import { Outlet } from "react-router";
import { AdminHeader } from "#app/components/admin/admin-header.tsx";
import { adminGuard, NO_STORE, requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import type { Route } from "./+types/layout";

/** Every route under this layout (pages, actions, files) passes the guard first. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  return { email: admin.email, csrfToken: admin.csrfToken };
}

export function headers() {
  return { "Cache-Control": NO_STORE };
}

export function meta() {
  return [{ name: "robots", content: "noindex, nofollow" }];
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-dvh bg-background">
      <AdminHeader email={loaderData.email} />
      <main className="mx-auto w-full max-w-7xl px-4 pt-6 pb-16 sm:px-6 lg:px-8">
        <Outlet />
      </main>
    </div>
  );
}
