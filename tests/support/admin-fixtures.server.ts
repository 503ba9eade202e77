/**
 * Shared by the back-office tests (stock ledger, order lists, day board): products made through the
 * admin's own form path (`productFormSchema` → `createProduct`), and orders placed for them.
 */
import { randomUUID } from "node:crypto";
import { productFormSchema } from "#app/features/catalog/product.schema.ts";
import { createProduct, getAdminProduct } from "#app/features/catalog/product-admin.server.ts";
import { type PlaceOrderInput, placeOrder } from "#app/features/checkout/place-order.server.ts";
import { placeOrderInput } from "./checkout-test-helpers.server.ts";

/** A Monday morning in New York (10:00 AM): today's slots from noon on are open. */
export const MONDAY_TEN_AM = new Date("2026-11-23T15:00:00Z");

type FormSize = {
  /** An existing size's id (an update keeps it). */
  id?: string;
  size?: string;
  price?: number;
  stock?: number;
  /** The form's 'Received' field: units added to stock on save. */
  received?: number;
  flowerEquivalent?: string;
};

/**
 * The admin form's input, parsed as the form's post is: a hybrid flower at 20 % THC unless `fields`
 * says otherwise (an update passes `version`); each size "1g", "2g"… at $50 with 500 in stock
 * unless given.
 */
export function productFormInput(name: string, sizes: FormSize[], fields: Record<string, unknown> = {}) {
  return productFormSchema.parse({
    name,
    description: "Test product",
    category: "Flower",
    strain: "Hybrid",
    thcPercentage: "20",
    thcMg: "",
    imageUrl: "https://images.example/test.webp",
    imageKey: "",
    isFeatured: false,
    isDeal: false,
    ...fields,
    sizes: sizes.map((size, index) => ({
      ...(size.id ? { id: size.id } : {}),
      size: size.size ?? `${index + 1}g`,
      price: String(size.price ?? 50),
      salePrice: "",
      inventoryCount: String(size.stock ?? 500),
      ...(size.received === undefined ? {} : { received: String(size.received) }),
      flowerEquivalent: size.flowerEquivalent ?? "1",
    })),
  });
}

/** A product saved as the admin form saves it (`productFormInput`). Returns it as loaded. */
export async function createFormProduct(
  name: string,
  sizes: FormSize[],
  fields: Record<string, unknown> = {},
) {
  const input = productFormInput(name, sizes, fields);
  const { id } = await createProduct(input);
  const loaded = await getAdminProduct(id);
  if (!loaded) throw new Error(`${name} was not created`);
  return loaded;
}

/**
 * An order of `items` by a shopper of its own for today's 4–6 PM slot at 1 Main St (Ada Customer),
 * placed at `now`; `overrides` replaces any field. Answers `placeOrder`'s result (refusals too).
 */
export function placeTestOrder(
  items: { productId: string; sizeId: string; quantity: number }[],
  { now = MONDAY_TEN_AM, ...overrides }: Partial<Omit<PlaceOrderInput, "items">> & { now?: Date } = {},
) {
  const input = placeOrderInput(
    items,
    {
      name: "Ada Customer",
      address: "1 Main St",
      deliveryDate: "2026-11-23",
      timeSlot: "4:00 PM-6:00 PM",
      ...overrides,
    },
    now,
  );
  return placeOrder(input, { now });
}

/** The same, for a test that expects the order to be taken: its id, token and total. */
export async function placedTestOrder(...args: Parameters<typeof placeTestOrder>) {
  const result = await placeTestOrder(...args);
  if (!result.ok) throw new Error(`order refused: ${result.reason}`);
  return result.order;
}

let shoppers = 0;

/**
 * A flower of its own (3.5 g at $45, 20 in stock, `name` in its name) and `place(timeSlot)`: an
 * order of 2 of it for `deliveryDate` by a shopper of its own, placed a second after the one before
 * (from `now`).
 */
export async function productToOrder(name: string, deliveryDate: string, now = MONDAY_TEN_AM) {
  const loaded = await createFormProduct(`${name} Kush ${randomUUID().slice(0, 6)}`, [
    { size: "3.5g", price: 45, stock: 20, flowerEquivalent: "3.5" },
  ]);
  const sizeId = loaded.sizes[0]?.id as string;
  const place = (timeSlot: string) => {
    shoppers += 1;
    return placedTestOrder([{ productId: loaded.id, sizeId, quantity: 2 }], {
      now: new Date(now.getTime() + shoppers * 1000),
      deliveryDate,
      timeSlot,
      name: `${name} Shopper ${shoppers}`,
    });
  };
  return { sizeId, place };
}
