import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";
import { CartTrigger } from "./cart-trigger.tsx";
import { StoreNavLink } from "./store-link.tsx";

const itemClass = (isActive: boolean) =>
  cn(
    "flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium",
    isActive ? "text-primary" : "text-muted-foreground",
  );

/** K-2 bottom bar on mobile: Home, Shop and the cart. */
export function BottomBar({ onOpenCart }: { onOpenCart: () => void }) {
  return (
    <nav
      aria-label="Quick links"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <div className="mx-auto flex max-w-md items-stretch">
        <StoreNavLink to="/" end className={itemClass}>
          <Icon name="house" className="size-5" />
          Home
        </StoreNavLink>
        <StoreNavLink to="/shop" className={itemClass}>
          <Icon name="store" className="size-5" />
          Shop
        </StoreNavLink>
        <div className="flex flex-1 items-center justify-center">
          <CartTrigger onOpen={onOpenCart} />
        </div>
      </div>
    </nav>
  );
}
