import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";
import { CartTrigger } from "./cart-trigger.tsx";
import { StoreLink, StoreNavLink } from "./store-link.tsx";

export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

export function Logo({ name }: { name: string }) {
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap font-display text-lg font-semibold tracking-tight text-primary sm:text-xl">
      <span className="inline-flex size-8 items-center justify-center rounded-full bg-primary text-accent">
        <Icon name="leaf" className="size-4" />
      </span>
      {name}
    </span>
  );
}

/** K-2 navigation bar, fixed at the top; on small screens a menu with Shop and the phone number. */
export function StoreHeader({
  storeName,
  phone,
  onOpenCart,
}: {
  storeName: string;
  phone: string;
  onOpenCart: () => void;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // Close the mobile menu on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the path changes
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-border bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/85">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4">
        <StoreLink to="/" className="rounded-md" aria-label={`${storeName} home`}>
          <Logo name={storeName} />
        </StoreLink>
        <div className="hidden items-center gap-2 md:flex">
          <StoreNavLink
            to="/shop"
            className={(isActive) =>
              cn(
                "inline-flex min-h-11 items-center rounded-md px-3 font-medium hover:bg-muted",
                isActive && "text-primary underline underline-offset-8",
              )
            }
          >
            Shop
          </StoreNavLink>
          <a
            href={telHref(phone)}
            className="inline-flex min-h-11 items-center gap-2 rounded-md px-3 font-medium hover:bg-muted"
          >
            <Icon name="phone" className="size-4 text-primary" />
            {phone}
          </a>
          {/* Static for everyone (the page is cached for all shoppers); /account knows who is signed in. */}
          <StoreLink
            to="/account"
            className="inline-flex min-h-11 items-center gap-2 rounded-md px-3 font-medium hover:bg-muted"
          >
            Sign in
          </StoreLink>
          <CartTrigger onOpen={onOpenCart} />
          <StoreLink to="/shop" className={buttonVariants({ variant: "accent" })}>
            Order Now
          </StoreLink>
        </div>
        <div className="flex items-center gap-1 md:hidden">
          <StoreLink to="/shop" className={buttonVariants({ variant: "accent", size: "sm" })}>
            Order Now
          </StoreLink>
          <CartTrigger onOpen={onOpenCart} />
          <button
            type="button"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((open) => !open)}
            className="inline-flex size-11 items-center justify-center rounded-md hover:bg-muted"
          >
            {menuOpen ? <Icon name="x" className="size-5" /> : <Icon name="menu" className="size-5" />}
          </button>
        </div>
      </nav>
      <div
        id="mobile-menu"
        hidden={!menuOpen}
        className="border-t border-border bg-background px-4 pb-4 md:hidden"
      >
        <ul className="flex flex-col">
          <li>
            <StoreLink to="/shop" className="flex min-h-12 items-center border-b border-border font-medium">
              Shop
            </StoreLink>
          </li>
          <li>
            <a href={telHref(phone)} className="flex min-h-12 items-center gap-2 font-medium">
              <Icon name="phone" className="size-4 text-primary" />
              {phone}
            </a>
          </li>
          <li>
            <StoreLink
              to="/account"
              className="flex min-h-12 items-center border-t border-border font-medium"
            >
              Sign in
            </StoreLink>
          </li>
        </ul>
      </div>
    </header>
  );
}
