import { isRouteErrorResponse, Outlet, useRouteLoaderData } from "react-router";
import { AdminChrome, chromeOfError, NoAccess } from "#app/components/admin/admin-chrome.tsx";
import { navigationFor } from "#app/features/staff/admin-routes.ts";
import { adminGuard, NO_STORE, requireAdmin } from "#app/features/staff/guard.server.ts";
import { config } from "#app/utils/env.server.ts";
import type { Route } from "./+types/layout";

/** Every route under this layout (pages, actions, files) passes the guard first. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard];

export function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  return {
    email: admin.email,
    csrfToken: admin.csrfToken,
    storeName: config().STORE_NAME,
    navigation: navigationFor(admin.role),
  };
}

export function headers() {
  return { "Cache-Control": NO_STORE };
}

export function meta() {
  return [{ name: "robots", content: "noindex, nofollow" }];
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminChrome chrome={loaderData}>
      <Outlet />
    </AdminChrome>
  );
}

/**
 * A 403 of a page's own scope check (a driver opening an order outside their run): 'You don't have
 * access to this page' in the admin chrome. The guard's 403 (the role lacks the route's permission)
 * stops before any loader, so React Router shows it at the root's boundary, which draws the same
 * page from the chrome the 403 carries. Other errors go on to the root.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const layoutData = useRouteLoaderData<typeof loader>("routes/admin/layout");
  if (!isRouteErrorResponse(error) || error.status !== 403) throw error;
  return <NoAccess chrome={chromeOfError(error.data) ?? layoutData} />;
}
