import { afterEach, describe, expect, it, vi } from "vitest";
import {
  amountToMinimumCents,
  CART_STORAGE_KEY,
  type CartItemInput,
  type CartLine,
  cartItemCount,
  cartReducer,
  cartTotalCents,
  isBelowMinimumOrder,
  lineUnitPriceCents,
  MIN_ORDER_CENTS,
  parseStoredCart,
  reconcileCart,
  serializeCart,
} from "./cart.ts";

function item(overrides: Partial<CartItemInput> = {}): CartItemInput {
  return {
    productId: "p1",
    productName: "Blue Dream",
    imageUrl: "/media/blue.webp",
    category: "Flower",
    sizeId: "s1",
    sizeLabel: "3.5g",
    priceCents: 4000,
    salePriceCents: null,
    ...overrides,
  };
}

afterEach(() => vi.restoreAllMocks());

describe("cart reducer (K-4)", () => {
  it("adds a new line with quantity 1, then raises the same product+size by 1", () => {
    let state = cartReducer([], { type: "add", item: item() });
    expect(state).toEqual([{ ...item(), quantity: 1 }]);
    state = cartReducer(state, { type: "add", item: item() });
    expect(state).toHaveLength(1);
    expect(state[0]?.quantity).toBe(2);
  });

  it("treats another size of the same product as another line", () => {
    let state = cartReducer([], { type: "add", item: item() });
    state = cartReducer(state, { type: "add", item: item({ sizeId: "s2", sizeLabel: "7g" }) });
    expect(state.map((line) => [line.sizeId, line.quantity])).toEqual([
      ["s1", 1],
      ["s2", 1],
    ]);
  });

  it("adds N at once from the detail page", () => {
    let state = cartReducer([], { type: "add", item: item(), quantity: 3 });
    state = cartReducer(state, { type: "add", item: item(), quantity: 2 });
    expect(state[0]?.quantity).toBe(5);
  });

  it("removes by product id and size id only", () => {
    let state = cartReducer([], { type: "add", item: item() });
    state = cartReducer(state, { type: "add", item: item({ sizeId: "s2" }) });
    state = cartReducer(state, { type: "remove", productId: "p1", sizeId: "s1" });
    expect(state.map((line) => line.sizeId)).toEqual(["s2"]);
  });

  it("update sets the quantity and drops a line at 0 or below", () => {
    let state = cartReducer([], { type: "add", item: item() });
    state = cartReducer(state, { type: "update", productId: "p1", sizeId: "s1", quantity: 7 });
    expect(state[0]?.quantity).toBe(7);
    expect(cartReducer(state, { type: "update", productId: "p1", sizeId: "s1", quantity: 0 })).toEqual([]);
    expect(cartReducer(state, { type: "update", productId: "p1", sizeId: "s1", quantity: -2 })).toEqual([]);
  });

  it("clear empties and load replaces", () => {
    const state = cartReducer([], { type: "add", item: item() });
    expect(cartReducer(state, { type: "clear" })).toEqual([]);
    const other: CartLine[] = [{ ...item({ productId: "p9" }), quantity: 4 }];
    expect(cartReducer(state, { type: "load", items: other })).toEqual(other);
  });
});

describe("pricing and minimum order (K-4, K-5)", () => {
  it("uses the sale price only when set, non-zero and lower than the price", () => {
    expect(lineUnitPriceCents({ priceCents: 4000, salePriceCents: null })).toBe(4000);
    expect(lineUnitPriceCents({ priceCents: 4000, salePriceCents: 3200 })).toBe(3200);
    expect(lineUnitPriceCents({ priceCents: 4000, salePriceCents: 0 })).toBe(4000);
    expect(lineUnitPriceCents({ priceCents: 4000, salePriceCents: 4000 })).toBe(4000);
    expect(lineUnitPriceCents({ priceCents: 4000, salePriceCents: 4500 })).toBe(4000);
  });

  it("totals unit price times quantity and counts quantities", () => {
    const lines: CartLine[] = [
      { ...item({ priceCents: 4000, salePriceCents: 3500 }), quantity: 2 },
      { ...item({ sizeId: "s2", priceCents: 999 }), quantity: 3 },
    ];
    expect(cartTotalCents(lines)).toBe(7000 + 2997);
    expect(cartItemCount(lines)).toBe(5);
  });

  it("says how much is missing to reach $80.00, exactly at the boundary", () => {
    expect(MIN_ORDER_CENTS).toBe(8000);
    expect(amountToMinimumCents(7999)).toBe(1);
    expect(amountToMinimumCents(8000)).toBe(0);
    expect(amountToMinimumCents(0)).toBe(8000);
    const at7999: CartLine[] = [{ ...item({ priceCents: 7999 }), quantity: 1 }];
    const at8000: CartLine[] = [{ ...item({ priceCents: 8000 }), quantity: 1 }];
    expect(isBelowMinimumOrder(cartTotalCents(at7999))).toBe(true);
    expect(isBelowMinimumOrder(cartTotalCents(at8000))).toBe(false);
  });
});

describe("stored cart (K-5, P-20)", () => {
  it("uses the key capital-grown-cart", () => {
    expect(CART_STORAGE_KEY).toBe("capital-grown-cart");
  });

  it("merges duplicate stored lines of the same product and size", () => {
    const line = { ...item(), quantity: 2 };
    expect(parseStoredCart(JSON.stringify([line, { ...line, quantity: 3 }]))).toEqual([
      { ...item(), quantity: 5 },
    ]);
  });

  it("round-trips and treats a missing value as empty", () => {
    const lines: CartLine[] = [{ ...item(), quantity: 2 }];
    expect(parseStoredCart(serializeCart(lines))).toEqual(lines);
    expect(parseStoredCart(null)).toEqual([]);
  });

  it("ignores a corrupt cart and logs an error", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(parseStoredCart("{not json")).toEqual([]);
    expect(parseStoredCart(JSON.stringify([{ productId: "p1", quantity: "lots" }]))).toEqual([]);
    expect(parseStoredCart(JSON.stringify({ items: [] }))).toEqual([]);
    const good = { ...item(), quantity: 1 };
    expect(parseStoredCart(JSON.stringify([good, { ...good, priceCents: -5 }]))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([{ ...good, sizeId: "" }]))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([{ ...good, salePriceCents: "12" }]))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([{ ...good, quantity: 1.5 }]))).toEqual([]);
    expect(parseStoredCart(JSON.stringify([null]))).toEqual([]);
    expect(error).toHaveBeenCalledTimes(8);
  });

  it("reconciles with the catalogue: drops gone and sold-out sizes, refreshes prices", () => {
    const lines: CartLine[] = [
      { ...item(), quantity: 2 },
      { ...item({ productId: "p2", sizeId: "s2" }), quantity: 1 },
      { ...item({ productId: "p3", sizeId: "s3" }), quantity: 1 },
      { ...item({ productId: "p4", sizeId: "s4" }), quantity: 1 },
    ];
    const fresh = (productId: string, sizeId: string, inStock: boolean) => ({
      productId,
      productName: "Renamed",
      imageUrl: "/new.webp",
      category: "Flower",
      sizeId,
      sizeLabel: "3.5g",
      priceCents: 3000,
      salePriceCents: 2500,
      inStock,
    });
    const result = reconcileCart(
      lines,
      [fresh("p1", "s1", true), fresh("p3", "s3", false), fresh("p4", "s4", true)],
      ["s1", "s2", "s3"],
    );
    expect(result.changed).toBe(true);
    expect(result.dropped.map((line) => line.sizeId)).toEqual(["s2", "s3"]);
    const { inStock: _inStock, ...refreshed } = fresh("p1", "s1", true);
    expect(result.lines).toEqual([{ ...refreshed, quantity: 2 }, lines[3]]);
  });

  it("reports no change when the catalogue agrees", () => {
    const lines: CartLine[] = [{ ...item(), quantity: 1 }];
    const result = reconcileCart(lines, [{ ...item(), inStock: true }]);
    expect(result.changed).toBe(false);
    expect(result.lines).toEqual(lines);
  });
});
