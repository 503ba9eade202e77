import { Link, Outlet } from "react-router";
import { publicStoreInfo } from "#app/utils/env.server.ts";
import type { Route } from "./+types/layout";

export function loader() {
  return { store: publicStoreInfo() };
}

export default function StoreLayout({ loaderData }: Route.ComponentProps) {
  const { store } = loaderData;
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="fixed inset-x-0 top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
        <nav className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
          <Link to="/" className="font-display text-xl font-semibold text-primary">
            {store.name}
          </Link>
          <div className="flex items-center gap-4">
            <Link to="/shop" className="font-medium">
              Shop
            </Link>
            <a href={`tel:${store.phone.replace(/[^\d+]/g, "")}`}>{store.phone}</a>
            <Link
              to="/shop"
              className="rounded-md bg-primary px-4 py-2 font-semibold text-primary-foreground"
            >
              Order Now
            </Link>
          </div>
        </nav>
      </header>
      <main className="flex-1 pt-16">
        <Outlet />
      </main>
      <footer className="border-t border-border bg-forest-900 px-4 py-10 text-paper-100">
        <div className="mx-auto max-w-7xl text-sm">
          <p>
            {store.phone} · {store.email}
          </p>
          <p className="mt-2">You must be 21 or older to purchase cannabis products.</p>
        </div>
      </footer>
    </div>
  );
}
