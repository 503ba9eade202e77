import { useCart } from "#app/components/cart-context.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";

/** Opens the cart panel; the badge shows the item count when above 0 (K-2). */
export function CartTrigger({
  onOpen,
  className,
  label,
}: {
  onOpen: () => void;
  className?: string;
  label?: string;
}) {
  const { itemCount } = useCart();
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-haspopup="dialog"
      aria-label={
        itemCount > 0 ? `Open cart, ${itemCount} ${itemCount === 1 ? "item" : "items"}` : "Open cart"
      }
      className={cn(
        "relative inline-flex size-11 items-center justify-center rounded-md text-foreground hover:bg-muted",
        className,
      )}
    >
      <Icon name="shopping-cart" className="size-5" />
      {label ? <span className="text-xs">{label}</span> : null}
      {itemCount > 0 ? (
        <span
          aria-hidden
          data-testid="cart-count"
          className="absolute top-0.5 right-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-accent px-1 text-xs leading-5 font-bold text-accent-foreground"
        >
          {itemCount}
        </span>
      ) : null}
    </button>
  );
}
