import { lazy, Suspense, useEffect, useState } from "react";
import { Outlet, useMatches, useNavigation } from "react-router";
import { AGE_GATE_STORAGE_KEY } from "#app/components/age-gate-key.ts";
import { BottomBar } from "#app/components/bottom-bar.tsx";
import { CartProvider } from "#app/components/cart-context.tsx";
import { StoreFooter } from "#app/components/store-footer.tsx";
import { StoreHeader } from "#app/components/store-header.tsx";
import { publicStoreInfo } from "#app/utils/env.server.ts";
import { onFirstInteraction } from "#app/utils/first-interaction.ts";
import { storeYear } from "#app/utils/store-time.ts";
import { toast } from "#app/utils/toast-client.ts";
import type { Route } from "./+types/layout";

/** The same for every shopper: the cart and the age-gate answer live in the browser. */
export { skipAfterPlacedOrder as shouldRevalidate } from "#app/features/checkout/after-placed-order.ts";

export function loader() {
  // The footer's year is the store's (New Year comes at midnight in New York), read on the server so
  // no page loads the zone's code for one number.
  return { store: publicStoreInfo(), year: storeYear(new Date()) };
}

/*
 * The two dialogs (Radix) are loaded on demand, keeping them out of the first-load JavaScript: the
 * cart panel when first opened (and warmed on the shopper's first tap or key press), the age gate
 * only for a shopper who has not answered yet.
 */
const loadCartPanel = () => import("#app/components/cart-panel.tsx");
const CartPanel = lazy(() => loadCartPanel().then((module) => ({ default: module.CartPanel })));
const AgeGate = lazy(() =>
  import("#app/components/age-gate.tsx").then((module) => ({ default: module.AgeGate })),
);

function hasAnsweredAgeGate() {
  try {
    return window.localStorage.getItem(AGE_GATE_STORAGE_KEY) === "yes";
  } catch {
    return false;
  }
}

/** Pages anyone may read without answering the age question (and the 404 page). */
const UNGATED_ROUTES = new Set([
  "routes/_store/privacy",
  "routes/_store/terms",
  "routes/_store/age-verification",
  "routes/_store/not-found",
]);

export default function StoreLayout({ loaderData }: Route.ComponentProps) {
  const { store, year } = loaderData;
  const [cartOpen, setCartOpen] = useState(false);
  const [cartLoaded, setCartLoaded] = useState(false);
  const [needsAgeGate, setNeedsAgeGate] = useState(false);
  const matches = useMatches();
  const navigation = useNavigation();
  const ungated = matches.some((match) => UNGATED_ROUTES.has(match.id));
  const openCart = () => {
    // A toast would cover the panel's total and minimum-order message.
    toast.dismiss();
    setCartLoaded(true);
    setCartOpen(true);
  };

  useEffect(() => {
    if (!hasAnsweredAgeGate()) setNeedsAgeGate(true);
    return onFirstInteraction(() => {
      loadCartPanel().catch(() => {});
    });
  }, []);

  return (
    <CartProvider>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-3 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <div className="flex min-h-dvh flex-col">
        <StoreHeader storeName={store.name} phone={store.phone} onOpenCart={openCart} />
        {navigation.state === "loading" ? (
          <div role="status" className="fixed inset-x-0 top-16 z-40 h-0.5 animate-pulse bg-accent">
            <span className="sr-only">Loading...</span>
          </div>
        ) : null}
        <main id="main" className="flex-1 pt-16 pb-16 md:pb-0">
          <Outlet />
        </main>
        <div className="pb-16 md:pb-0 bg-forest-900">
          <StoreFooter store={store} year={year} />
        </div>
        <BottomBar onOpenCart={openCart} />
      </div>
      {cartLoaded ? (
        <Suspense fallback={null}>
          <CartPanel open={cartOpen} onOpenChange={setCartOpen} />
        </Suspense>
      ) : null}
      {needsAgeGate ? (
        <Suspense fallback={null}>
          <AgeGate storeName={store.name} skip={ungated} />
        </Suspense>
      ) : null}
    </CartProvider>
  );
}
