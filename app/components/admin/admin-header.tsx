import { Form, Link, NavLink } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";
import { CsrfInput } from "./csrf.tsx";

const LINKS = [
  { to: "/admin/today", label: "Today" },
  { to: "/admin/dashboard", label: "Dashboard" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/outbox", label: "Outbox" },
  { to: "/admin/settings/limits", label: "Limits" },
  { to: "/admin/settings/delivery", label: "Delivery" },
];

/** Top bar of the back office: brand, sections, the signed-in admin and 'Sign Out'. */
export function AdminHeader({ email, storeName }: { email: string; storeName: string }) {
  return (
    <header className="sticky top-0 z-30 border-border border-b bg-card/95 backdrop-blur print:hidden">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 sm:px-6 lg:px-8">
        <Link
          to="/admin/dashboard"
          className="flex min-h-11 items-center gap-2 font-display text-lg text-primary"
        >
          {storeName}{" "}
          <span className="font-sans text-muted-foreground text-xs uppercase tracking-widest">Admin</span>
        </Link>
        <nav
          aria-label="Admin"
          className="order-3 -mx-1 flex w-full gap-1 overflow-x-auto sm:order-none sm:w-auto"
        >
          {LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
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
