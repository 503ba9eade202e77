import { Outlet, useNavigation } from "react-router";
import { AdminHeader } from "#app/components/admin/admin-header.tsx";
import { adminGuard, NO_STORE, requireAdmin } from "#app/features/admin-auth/guard.server.ts";
import { config } from "#app/utils/env.server.ts";
import type { Route } from "./+types/layout";

/** Every route under this layout (pages, actions, files) passes the guard first. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  return { email: admin.email, csrfToken: admin.csrfToken, storeName: config().STORE_NAME };
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
      <AdminHeader email={loaderData.email} storeName={loaderData.storeName} />
      <NavigationStatus />
      <main className="mx-auto w-full max-w-7xl px-4 pt-6 pb-16 sm:px-6 lg:px-8">
        <Outlet />
      </main>
    </div>
  );
}

/** Spec §2 loading texts while the next admin screen's data arrives. */
function NavigationStatus() {
  const navigation = useNavigation();
  if (navigation.state !== "loading" || !navigation.location) return null;
  const path = navigation.location.pathname;
  const text =
    path === "/admin/products"
      ? "Loading products..."
      : path.startsWith("/admin/products/edit/")
        ? "Loading product..."
        : "Loading...";
  return (
    <p
      role="status"
      className="fixed top-16 left-1/2 z-40 -translate-x-1/2 rounded-full bg-primary px-4 py-2 font-medium text-primary-foreground text-sm shadow-raised"
    >
      {text}
    </p>
  );
}
