import { useNavigation } from "react-router";
import { type AdminChromeData, chromeOfError } from "./admin-chrome-data.ts";
import { AdminHeader } from "./admin-header.tsx";
import { ChromeCsrfContext } from "./csrf.tsx";

export function AdminChrome({ chrome, children }: { chrome: AdminChromeData; children: React.ReactNode }) {
  return (
    <ChromeCsrfContext.Provider value={chrome.csrfToken}>
      <div className="min-h-dvh bg-background">
        <AdminHeader email={chrome.email} storeName={chrome.storeName} navigation={chrome.navigation} />
        <NavigationStatus />
        <main className="mx-auto w-full max-w-7xl px-4 pt-6 pb-16 sm:px-6 lg:px-8">{children}</main>
      </div>
    </ChromeCsrfContext.Provider>
  );
}

/** K-2 loading texts while the next admin screen's data arrives. */
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

/** P-26: a role without the permission sees this, with the admin chrome, never the page. */
export function NoAccess({ chrome }: { chrome: AdminChromeData | null | undefined }) {
  const body = (
    <div className="mx-auto max-w-xl py-16 text-center">
      <title>No access | Admin</title>
      <h1 className="font-display text-3xl text-primary">You don't have access to this page</h1>
      <p className="mt-2 text-muted-foreground">
        Your role does not include it. Ask the shop's owner if you need it.
      </p>
    </div>
  );
  return chrome ? <AdminChrome chrome={chrome}>{body}</AdminChrome> : <main>{body}</main>;
}

export { type AdminChromeData, chromeOfError };
