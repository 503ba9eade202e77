/**
 * The cart in the browser (K-4, P-20). Server HTML never depends on the cart: it is restored
 * from local storage after hydration, saved on every change, and reconciled with the catalogue.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import {
  CART_STORAGE_KEY,
  type CartItemInput,
  type CartLine,
  type CurrentSizePrice,
  cartItemCount,
  cartReducer,
  cartTotalCents,
  parseStoredCart,
  reconcileCart,
  serializeCart,
} from "#app/features/cart/cart.ts";
import type { StockShortfall } from "#app/features/checkout/checkout.schema.ts";
import { toast } from "#app/utils/toast-client.ts";

export type CartContextValue = {
  items: CartLine[];
  totalCents: number;
  itemCount: number;
  /** False until the stored cart has been read (server HTML and the first client render show an empty cart). */
  hydrated: boolean;
  addItem: (item: CartItemInput, quantity?: number) => void;
  removeItem: (productId: string, sizeId: string) => void;
  updateQuantity: (productId: string, sizeId: string, quantity: number) => void;
  clearCart: () => void;
  /** The line the last checkout found short of stock (record 026): the cart offers 'Reduce to N'. */
  stockNotice: StockShortfall | null;
  setStockNotice: (notice: StockShortfall | null) => void;
};

/** What changes the cart: stable for the page's life, so a consumer of these alone never re-renders. */
export type CartActions = Pick<CartContextValue, "addItem" | "removeItem" | "updateQuantity" | "clearCart">;

const CartContext = createContext<CartContextValue | null>(null);
/**
 * The actions alone: a product card needs only `addItem`, and reading it from here keeps the 36
 * cards of a listing from re-rendering when the stored cart is restored after hydration or an item
 * is added (that re-render was one long main-thread task on /shop).
 */
const CartActionsContext = createContext<CartActions | null>(null);

/** Where the browser asks for current prices of stored sizes (P-20). */
export const CART_PRICES_PATH = "/api/cart-prices";

async function fetchCurrentPrices(lines: CartLine[], signal: AbortSignal): Promise<CurrentSizePrice[]> {
  const params = new URLSearchParams();
  for (const line of lines) params.append("size", line.sizeId);
  const response = await fetch(`${CART_PRICES_PATH}?${params}`, {
    signal,
    headers: { accept: "application/json" },
  });
  if (!response.ok) throw new Error(`cart prices answered ${response.status}`);
  const body = (await response.json()) as { sizes: CurrentSizePrice[] };
  return body.sizes;
}

function readStorage(): string | null {
  try {
    return window.localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeStorage(lines: CartLine[]) {
  try {
    window.localStorage.setItem(CART_STORAGE_KEY, serializeCart(lines));
  } catch (error) {
    console.error("Could not save the cart", error);
  }
}

export function CartProvider({ children }: { children: React.ReactNode }) {
  const [items, dispatch] = useReducer(cartReducer, []);
  const [hydrated, setHydrated] = useState(false);
  const [stockNotice, setStockNotice] = useState<StockShortfall | null>(null);
  const lastSaved = useRef<string | null>(null);

  // Restore at start-up, then reconcile with the catalogue.
  useEffect(() => {
    const raw = readStorage();
    const stored = parseStoredCart(raw);
    dispatch({ type: "load", items: stored });
    lastSaved.current = serializeCart(stored);
    if (raw !== null && lastSaved.current !== raw) writeStorage(stored);
    setHydrated(true);
    if (stored.length === 0) return;
    const controller = new AbortController();
    fetchCurrentPrices(stored, controller.signal)
      .then((current) => {
        const checkedSizeIds = stored.map((line) => line.sizeId);
        const { dropped, capped } = reconcileCart(stored, current, checkedSizeIds);
        dispatch({ type: "reconcile", current, checkedSizeIds });
        if (capped.length > 0) {
          toast.info("Your cart was updated", {
            description: capped
              .map((line) => `Only ${line.quantity} left of ${line.productName} (${line.sizeLabel}).`)
              .join(" "),
          });
        }
        if (dropped.length > 0) {
          toast.info("Your cart was updated", {
            description: `${dropped.map((line) => `${line.productName} (${line.sizeLabel})`).join(", ")} ${
              dropped.length === 1 ? "is" : "are"
            } no longer available.`,
          });
        }
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          console.error("Could not check the cart against the catalogue", error);
      });
    return () => controller.abort();
  }, []);

  // Other tabs: keep the same cart everywhere.
  useEffect(() => {
    function onStorage(event: StorageEvent) {
      if (event.key !== CART_STORAGE_KEY) return;
      const lines = parseStoredCart(event.newValue);
      lastSaved.current = serializeCart(lines);
      dispatch({ type: "load", items: lines });
    }
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  // Save on every change of the items (after the stored cart was read, so it is never overwritten with []).
  useEffect(() => {
    if (!hydrated) return;
    const serialized = serializeCart(items);
    if (serialized === lastSaved.current) return;
    lastSaved.current = serialized;
    writeStorage(items);
  }, [items, hydrated]);

  const addItem = useCallback((item: CartItemInput, quantity = 1) => {
    dispatch({ type: "add", item, quantity });
  }, []);
  const removeItem = useCallback((productId: string, sizeId: string) => {
    dispatch({ type: "remove", productId, sizeId });
  }, []);
  const updateQuantity = useCallback((productId: string, sizeId: string, quantity: number) => {
    dispatch({ type: "update", productId, sizeId, quantity });
  }, []);
  const clearCart = useCallback(() => dispatch({ type: "clear" }), []);

  const value = useMemo<CartContextValue>(
    () => ({
      items,
      totalCents: cartTotalCents(items),
      itemCount: cartItemCount(items),
      hydrated,
      addItem,
      removeItem,
      updateQuantity,
      clearCart,
      stockNotice,
      setStockNotice,
    }),
    [items, hydrated, addItem, removeItem, updateQuantity, clearCart, stockNotice],
  );

  const actions = useMemo<CartActions>(
    () => ({ addItem, removeItem, updateQuantity, clearCart }),
    [addItem, removeItem, updateQuantity, clearCart],
  );

  return (
    <CartActionsContext.Provider value={actions}>
      <CartContext.Provider value={value}>{children}</CartContext.Provider>
    </CartActionsContext.Provider>
  );
}

export function useCart(): CartContextValue {
  const value = useContext(CartContext);
  if (!value) throw new Error("useCart must be used within a CartProvider");
  return value;
}

/** The cart's actions without its contents: the component does not re-render when the cart changes. */
export function useCartActions(): CartActions {
  const value = useContext(CartActionsContext);
  if (!value) throw new Error("useCartActions must be used within a CartProvider");
  return value;
}
