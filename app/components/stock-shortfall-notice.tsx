import { useCart } from "#app/components/cart-context.tsx";
import { Button } from "#app/components/ui/button.tsx";

/**
 * The line the last checkout found short of stock (record 026): 'Only N left of …' with a button
 * that brings the line down to N (or removes it when none are left).
 */
export function StockShortfallNotice({ className }: { className?: string }) {
  const { stockNotice, setStockNotice, items, updateQuantity, removeItem } = useCart();
  if (!stockNotice) return null;
  const line = items.find(
    (candidate) => candidate.productId === stockNotice.productId && candidate.sizeId === stockNotice.sizeId,
  );
  if (!line || line.quantity <= stockNotice.left) return null;
  const { left } = stockNotice;
  return (
    <div
      className={`space-y-2 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive ${className ?? ""}`}
      role="alert"
    >
      <p>{stockNotice.message}</p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => {
          if (left > 0) updateQuantity(line.productId, line.sizeId, left);
          else removeItem(line.productId, line.sizeId);
          setStockNotice(null);
        }}
      >
        {left > 0 ? `Reduce to ${left}` : "Remove from cart"}
      </Button>
    </div>
  );
}
