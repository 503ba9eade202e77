import { useState } from "react";
import { Form, Link, NavLink } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetTitle,
  SheetTrigger,
} from "#app/components/ui/sheet.tsx";
import { cn } from "#app/utils/cn.ts";
import { CsrfInput } from "./csrf.tsx";

export type AdminNavLink = { to: string; label: string };

/**
 * Top bar of the back office: brand, the sections the signed-in role can open (the server filters
 * them, features/staff/admin-routes.ts) and 'Sign Out'. Below the `xl` breakpoint (1280 px) an
 * owner's sections do not fit in one row: a 'Menu' button opens them in a side panel, with the
 * signed-in e-mail and the one 'Sign Out'.
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
      <div className="mx-auto flex max-w-7xl items-center gap-x-4 px-4 py-2 sm:px-6 lg:px-8">
        <Link
          to={home}
          className="flex min-h-11 shrink-0 items-center gap-2 font-display text-lg text-primary"
        >
          {storeName}{" "}
          <span className="font-sans text-muted-foreground text-xs uppercase tracking-widest">Admin</span>
        </Link>
        <nav aria-label="Admin" className="hidden gap-1 xl:flex">
          {navigation.map((link) => (
            <AdminNavItem key={link.to} link={link} />
          ))}
        </nav>
        <div className="ml-auto hidden items-center gap-2 xl:flex">
          <SignOutButton title={`Signed in as ${email}`} />
        </div>
        <AdminMenu email={email} navigation={navigation} />
      </div>
    </header>
  );
}

function AdminNavItem({ link, onNavigate }: { link: AdminNavLink; onNavigate?: () => void }) {
  return (
    <NavLink
      to={link.to}
      onClick={onNavigate}
      // The driver's run is a page of its own (no admin chrome, its own cookie path): a full load,
      // not a client navigation inside the admin layout.
      reloadDocument={!link.to.startsWith("/admin")}
      className={({ isActive }) =>
        cn(
          "inline-flex min-h-11 items-center rounded-md px-3 font-medium text-sm hover:text-foreground",
          isActive ? "bg-secondary text-secondary-foreground" : "text-muted-foreground hover:bg-muted",
        )
      }
    >
      {link.label}
    </NavLink>
  );
}

/** The phone's navigation: every section of the role in a panel (Radix dialog: focus trap, Escape). */
function AdminMenu({ email, navigation }: { email: string; navigation: readonly AdminNavLink[] }) {
  const [open, setOpen] = useState(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger
        className={buttonVariants({ variant: "outline", size: "sm", className: "ml-auto xl:hidden" })}
      >
        <Icon name="menu" />
        Menu
      </SheetTrigger>
      <SheetContent side="right" className="max-w-xs overflow-y-auto">
        <div className="border-border border-b px-4 py-4 pr-14">
          <SheetTitle className="font-display text-lg text-primary">Admin menu</SheetTitle>
          <SheetDescription className="break-all text-muted-foreground text-sm">
            Signed in as {email}
          </SheetDescription>
        </div>
        <nav aria-label="Admin" className="flex flex-col gap-1 p-3">
          {navigation.map((link) => (
            <AdminNavItem key={link.to} link={link} onNavigate={() => setOpen(false)} />
          ))}
        </nav>
        <div className="mt-auto border-border border-t p-3">
          <SignOutButton className="[&_button]:w-full" />
        </div>
      </SheetContent>
    </Sheet>
  );
}

export function SignOutButton({ className, title }: { className?: string; title?: string }) {
  return (
    <Form method="post" action="/admin/logout" className={className}>
      <CsrfInput />
      <Button type="submit" variant="outline" size="sm" title={title}>
        <Icon name="log-out" />
        Sign Out
      </Button>
    </Form>
  );
}
