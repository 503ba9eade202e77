import { Form, Link, NavLink } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";
import { CsrfInput } from "./csrf.tsx";

export type AdminNavLink = { to: string; label: string };

/**
 * Top bar of the back office: brand, the sections the signed-in role can open (the server filters
 * them, features/staff/admin-routes.ts), the signed-in admin and 'Sign Out'.
 */
export function AdminHeader({
  email,
  storeName,
  navigation,
}: {
  email: string;
  storeName: string;
  navigation: readonly AdminNavLink[];
}) {
  const home = navigation.some((link) => link.to === "/admin/dashboard")
    ? "/admin/dashboard"
    : "/admin/today";
  return (
    <header className="sticky top-0 z-30 border-border border-b bg-card/95 backdrop-blur print:hidden">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 sm:px-6 lg:px-8">
        <Link to={home} className="flex min-h-11 items-center gap-2 font-display text-lg text-primary">
          {storeName}{" "}
          <span className="font-sans text-muted-foreground text-xs uppercase tracking-widest">Admin</span>
        </Link>
        <nav
          aria-label="Admin"
          className="order-3 -mx-1 flex w-full gap-1 overflow-x-auto sm:order-none sm:w-auto"
        >
          {navigation.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              // The driver's run is a page of its own (no admin chrome): a full load, not a client
              // navigation inside the admin layout.
              reloadDocument={!link.to.startsWith("/admin")}
              className={({ isActive }) =>
                cn(
                  "inline-flex min-h-11 items-center rounded-md px-3 font-medium text-sm hover:text-foreground",
                  isActive
                    ? "bg-secondary text-secondary-foreground"
                    : "text-muted-foreground hover:bg-muted",
                )
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <span className="hidden text-muted-foreground text-sm md:inline" title="Signed in">
            {email}
          </span>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}

export function SignOutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action="/admin/logout" className={className}>
      <CsrfInput />
      <Button type="submit" variant="outline" size="sm">
        <Icon name="log-out" />
        Sign Out
      </Button>
    </Form>
  );
}
