import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { adminUsers, auditEvents, productSizes, stockMovements } from "#app/db/schema.ts";
import { COMMAND_LINE_ORIGIN } from "#app/features/audit/audit.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { createFormProduct, placeTestOrder } from "#tests/support/admin-fixtures.server.ts";
import { type ProductFormValues, productFormSchema } from "./product.schema.ts";
import { getAdminProduct, toFormValues, updateProduct } from "./product-admin.server.ts";
import {
  adoptStockMismatches,
  explainStockMismatch,
  moveStock,
  recentMovements,
  StockBelowZero,
  stockMismatches,
} from "./stock.server.ts";

// A Monday morning in New York: today's slots from noon on are open.
const NOW = new Date("2026-11-23T15:00:00Z");

function formOf(values: ProductFormValues) {
  return productFormSchema.parse({ ...values, sizes: values.sizes.map(({ key: _key, ...size }) => size) });
}

function product(name: string, stocks: number[]) {
  return createFormProduct(
    name,
    stocks.map((stock) => ({ stock })),
  );
}

/** The edit form as it loads: its values and the version it carries. */
async function openForm(id: string) {
  const loaded = await getAdminProduct(id);
  if (!loaded) throw new Error("gone");
  return toFormValues(loaded);
}

describeEachDatabase("stock ledger", (database) => {
  it("'Received +12' adds 12, as a movement with the admin, the reason and the note", async () => {
    const { db } = database();
    const [admin] = await db
      .insert(adminUsers)
      .values({ email: "stock@capitalgrown.test", passwordHash: "$argon2id$x" })
      .returning();
    const created = await product("Received Haze", [7]);
    const form = await openForm(created.id);
    const size = form.sizes[0] as ProductFormValues["sizes"][number];
    const result = await updateProduct(
      created.id,
      formOf({ ...form, sizes: [{ ...size, received: "12", stockNote: "Delivery from grower" }] }),
      { actorId: admin?.id },
    );
    expect(result).toEqual({ ok: true, id: created.id });
    const after = await getAdminProduct(created.id);
    expect(after?.sizes[0]?.inventoryCount).toBe(19);
    const history = (await recentMovements([size.id])).get(size.id);
    expect(history?.map((m) => [m.delta, m.reason, m.note, m.actorEmail])).toEqual([
      [12, "received", "Delivery from grower", "stock@capitalgrown.test"],
      [7, "received", "Opening stock", null],
    ]);
  });

  it("refuses the second of two admins' saves with the message, and writes nothing of it", async () => {
    const created = await product("Two Admins", [5]);
    const first = await openForm(created.id);
    const second = await openForm(created.id);
    expect(await updateProduct(created.id, formOf({ ...first, name: "Two Admins (first)" }))).toEqual({
      ok: true,
      id: created.id,
    });
    const size = second.sizes[0] as ProductFormValues["sizes"][number];
    expect(
      await updateProduct(
        created.id,
        formOf({ ...second, name: "Two Admins (second)", sizes: [{ ...size, received: "3" }] }),
      ),
    ).toEqual({ ok: false, reason: "conflict" });
    const after = await getAdminProduct(created.id);
    expect(after?.name).toBe("Two Admins (first)");
    expect(after?.sizes[0]?.inventoryCount).toBe(5);
    expect(after?.version).toBe(2);
    // Reloaded, the second admin's save goes through.
    const reloaded = await openForm(created.id);
    expect((await updateProduct(created.id, formOf({ ...reloaded, name: "Two Admins (second)" }))).ok).toBe(
      true,
    );
  });

  it("keeps an order placed while the edit form was open: stock is never written as a figure", async () => {
    const created = await product("Open Form", [10]);
    const form = await openForm(created.id);
    const size = created.sizes[0] as (typeof created.sizes)[number];
    const placed = await placeTestOrder([{ productId: created.id, sizeId: size.id, quantity: 4 }]);
    expect(placed.ok).toBe(true);
    // The form still shows 10 in stock; saving a price change must not put the 4 back.
    const row = form.sizes[0] as ProductFormValues["sizes"][number];
    expect(row.inventoryCount).toBe("10");
    expect((await updateProduct(created.id, formOf({ ...form, sizes: [{ ...row, price: "55" }] }))).ok).toBe(
      true,
    );
    const after = await getAdminProduct(created.id);
    expect(after?.sizes[0]?.inventoryCount).toBe(6);
    expect(after?.sizes[0]?.priceCents).toBe(5500);
  });

  it("refuses a correction below zero and one without a note", async () => {
    const created = await product("Correction Kush", [3]);
    const form = await openForm(created.id);
    const row = form.sizes[0] as ProductFormValues["sizes"][number];
    const parsed = productFormSchema.safeParse({
      ...form,
      sizes: [{ ...row, correction: "-1", stockNote: "" }],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toContainEqual([
      "sizes.0.stockNote",
      "A correction needs a note",
    ]);
    const result = await updateProduct(
      created.id,
      formOf({ ...form, name: "Renamed", sizes: [{ ...row, correction: "-5", stockNote: "Shelf count" }] }),
    );
    expect(result).toEqual({
      ok: false,
      reason: "stock",
      fieldErrors: { "sizes.0.correction": "Only 3 in stock: a correction can take at most 3" },
    });
    // All or nothing: the rename rolled back with the refused correction.
    expect((await getAdminProduct(created.id))?.name).toBe("Correction Kush");
    await expect(
      moveStock(database().db, [{ sizeId: row.id, delta: -4, reason: "correction", note: "x" }]),
    ).rejects.toBeInstanceOf(StockBelowZero);
  });

  it("refuses 5 of 3 with 'Only 3 left of …' and the sold-out wording when none are left", async () => {
    const created = await product("Scarce Dream", [3]);
    const size = created.sizes[0] as (typeof created.sizes)[number];
    const refused = await placeTestOrder([{ productId: created.id, sizeId: size.id, quantity: 5 }]);
    expect(refused).toMatchObject({
      ok: false,
      reason: "out-of-stock",
      itemName: "Scarce Dream (1g)",
      left: 3,
      productId: created.id,
      sizeId: size.id,
    });
    const { stockShortMessage } = await import("#app/features/checkout/checkout.schema.ts");
    expect(stockShortMessage("Scarce Dream (1g)", 3)).toBe("Only 3 left of Scarce Dream (1g).");
    expect((await placeTestOrder([{ productId: created.id, sizeId: size.id, quantity: 3 }])).ok).toBe(true);
    expect(await placeTestOrder([{ productId: created.id, sizeId: size.id, quantity: 2 }])).toMatchObject({
      reason: "out-of-stock",
      left: 0,
    });
    expect(stockShortMessage("Scarce Dream (1g)", 0)).toBe(
      "Sorry, Scarce Dream (1g) sold out while you were checking out. Please update your cart.",
    );
  });

  it("keeps stock equal to the sum of its movements after orders, cancels, reopens, corrections and imports", async () => {
    const { db } = database();
    const a = await product("Ledger A", [30, 8]);
    const b = await product("Ledger B", [12]);
    const [a1, a2] = a.sizes as [(typeof a.sizes)[number], (typeof a.sizes)[number]];
    const [b1] = b.sizes as [(typeof b.sizes)[number]];
    const placed = [];
    for (let i = 0; i < 6; i++) {
      const result = await placeTestOrder([
        { productId: a.id, sizeId: a1.id, quantity: 1 + (i % 3) },
        { productId: b.id, sizeId: b1.id, quantity: 1 },
      ]);
      if (!result.ok) throw new Error(result.reason);
      placed.push(result.order);
    }
    // A refused order writes no movement.
    expect((await placeTestOrder([{ productId: a.id, sizeId: a2.id, quantity: 9 }])).ok).toBe(false);
    expect((await setOrderStatus(placed[0]?.id as string, "cancelled", { now: NOW })).ok).toBe(true);
    expect((await setOrderStatus(placed[1]?.id as string, "cancelled", { now: NOW })).ok).toBe(true);
    expect((await setOrderStatus(placed[0]?.id as string, "confirmed", { now: NOW })).ok).toBe(true);
    await db.transaction((tx) =>
      moveStock(tx, [
        { sizeId: a2.id, delta: -2, reason: "correction", note: "Damaged" },
        { sizeId: b1.id, delta: 20, reason: "import" },
        { sizeId: a1.id, delta: 5, reason: "received" },
      ]),
    );
    const form = await openForm(a.id);
    await updateProduct(
      a.id,
      formOf({
        ...form,
        sizes: form.sizes.map((size, index) =>
          index === 1 ? { ...size, correction: "-1", stockNote: "Count" } : { ...size, received: "2" },
        ),
      }),
    );
    expect(await stockMismatches(db)).toEqual([]);
    const reasons = (await db.select({ reason: stockMovements.reason }).from(stockMovements)).map(
      (row) => row.reason,
    );
    expect(new Set(reasons)).toEqual(
      new Set(["order", "cancel", "reopen", "received", "correction", "import"]),
    );
    const orderMoves = await db.select().from(stockMovements).where(eq(stockMovements.reason, "order"));
    expect(orderMoves.every((move) => move.orderId !== null && move.delta < 0)).toBe(true);
    // A stock change made behind the ledger's back is found.
    await db.update(productSizes).set({ inventoryCount: 99 }).where(eq(productSizes.id, b1.id));
    expect(await stockMismatches(db)).toMatchObject([{ sizeId: b1.id, onHand: 99, label: "Ledger B (1g)" }]);
  });

  it("explains each gap (never recorded, added or taken outside the ledger) and adopts it as an audited correction", async () => {
    const { db } = database();
    await adoptStockMismatches(CLI, { executor: db }); // earlier tests' gaps
    const created = await product("Adopt Kush", [10, 10]);
    const [kept, taken] = created.sizes;
    if (!kept || !taken) throw new Error("sizes");
    // What an instance of an older version does: a size with stock and no movement, and changes
    // of stock that write no movement.
    const [unrecorded] = await db
      .insert(productSizes)
      .values({ productId: created.id, size: "28g", priceCents: 9_000, inventoryCount: 30, position: 5 })
      .returning();
    await db.update(productSizes).set({ inventoryCount: 14 }).where(eq(productSizes.id, kept.id));
    await db.update(productSizes).set({ inventoryCount: 7 }).where(eq(productSizes.id, taken.id));
    const found = await stockMismatches(db);
    expect(found.map((row) => [row.sizeId, row.kind, explainStockMismatch(row)])).toEqual([
      [
        kept.id,
        "added",
        "14 on hand, 10 in the ledger: 4 added outside the stock ledger (by an older instance or by hand)",
      ],
      [
        taken.id,
        "taken",
        "7 on hand, 10 in the ledger: 3 taken outside the stock ledger (an order or change made by an older instance or by hand), or movements were deleted",
      ],
      [
        unrecorded?.id,
        "unrecorded",
        "30 on hand, 0 in the ledger: stock set outside the stock ledger (by an older instance or by hand), never recorded as a movement",
      ],
    ]);

    const adopted = await adoptStockMismatches(CLI, { executor: db });
    expect(adopted.map((row) => row.onHand - row.ledger)).toEqual([4, -3, 30]);
    expect(await stockMismatches(db)).toEqual([]);
    // Stock on hand stays what it was; the ledger now adds up to it.
    const stocks = await db
      .select({ id: productSizes.id, stock: productSizes.inventoryCount })
      .from(productSizes)
      .where(eq(productSizes.productId, created.id));
    expect(new Map(stocks.map((row) => [row.id, row.stock]))).toEqual(
      new Map([
        [kept.id, 14],
        [taken.id, 7],
        [unrecorded?.id, 30],
      ]),
    );
    const corrections = await db
      .select()
      .from(stockMovements)
      .where(and(eq(stockMovements.sizeId, taken.id), eq(stockMovements.reason, "correction")));
    expect(corrections).toMatchObject([{ delta: -3 }]);
    const events = await db.select().from(auditEvents).where(eq(auditEvents.action, "stock.adopted"));
    expect(events.filter((event) => event.targetId === unrecorded?.id)).toMatchObject([
      { targetType: "product_size", details: { onHand: 30, ledger: 0, delta: 30, kind: "unrecorded" } },
    ]);
    // Nothing left to adopt: nothing written.
    expect(await adoptStockMismatches(CLI, { executor: db })).toEqual([]);
  });
});

const CLI = { actor: { userId: null, email: null, role: null }, origin: COMMAND_LINE_ORIGIN };
