import { House, Store } from "lucide-react";
import { NavLink } from "react-router";
import { cn } from "#app/utils/cn.ts";
import { CartTrigger } from "./cart-trigger.tsx";

const itemClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium",
    isActive ? "text-primary" : "text-muted-foreground",
  );

/** Spec §2 bottom bar on mobile: Home, Shop and the cart. */
export function BottomBar({ onOpenCart }: { onOpenCart: () => void }) {
  return (
    <nav
      aria-label="Quick links"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <div className="mx-auto flex max-w-md items-stretch">
        <NavLink to="/" end className={itemClass}>
          <House className="size-5" aria-hidden />
          Home
        </NavLink>
        <NavLink to="/shop" className={itemClass}>
          <Store className="size-5" aria-hidden />
          Shop
        </NavLink>
        <div className="flex flex-1 items-center justify-center">
          <CartTrigger onOpen={onOpenCart} />
        </div>
      </div>
    </nav>
  );
}
