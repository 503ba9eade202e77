/**
 * A checkout post is refused for everything that does not need the ID photo before the photo is
 * decoded, and every decode counts against the address's hourly ID photo budget
 * (ID_UPLOADS_PER_HOUR, at its default of 20 here) whether or not an order comes of it.
 */
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { orders } from "#app/db/schema.ts";
import { budgetUsed } from "#app/features/abuse/rate-limits.server.ts";
import { config } from "#app/utils/env.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { postCheckout } from "#tests/support/checkout-posts.server.ts";
import {
  insertTestProduct,
  oneOf,
  placedOrderRow,
  testIdPhoto,
  undecodablePhoto,
} from "#tests/support/checkout-test-helpers.server.ts";

const UNREADABLE = "This file is not a readable image. Please upload a PNG, JPG or GIF photo of your ID.";

describeEachDatabase("checkout: cheap refusals first", (database) => {
  it("refuses a sold-out size, a third open order and a ZIP outside the area before decoding the photo", async () => {
    const { db } = database();
    const clientAddress = "198.51.100.101";
    const soldOut = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 0 });
    const refusedSoldOut = await postCheckout(
      oneOf(soldOut),
      {},
      { file: undecodablePhoto(), clientAddress },
    );
    expect(refusedSoldOut).toMatchObject({ ok: false, status: 409, toast: { title: "Out of Stock" } });

    const product = await insertTestProduct(db, { priceCents: 9000 });
    const phone = "(202) 555-3131";
    for (let i = 0; i < 2; i++) {
      expect((await postCheckout(oneOf(product), { phone })).ok).toBe(true);
    }
    const thirdOpen = await postCheckout(
      oneOf(product),
      { phone },
      { file: undecodablePhoto(), clientAddress },
    );
    expect(thirdOpen).toMatchObject({ ok: false, status: 409, toast: { title: "Too many open orders" } });

    const outside = await postCheckout(
      oneOf(product),
      { zipCode: "90210" },
      { file: undecodablePhoto(), clientAddress },
    );
    expect(outside).toMatchObject({ ok: false, status: 400, toast: { title: "Outside our delivery area" } });

    // None of them decoded the photo, so none spent the address's photo budget.
    expect(await budgetUsed("idPhotoUpload", clientAddress)).toBe(0);
  });

  it("answers a refused post from the fields sent before its photo, without reading the photo", async () => {
    const { db } = database();
    const soldOut = await insertTestProduct(db, { priceCents: 9000, inventoryCount: 0 });
    // Over the upload limit: read to its end, it would be refused as too large.
    const huge = Buffer.concat([undecodablePhoto().bytes, randomBytes(11 * 1024 * 1024)]);
    const refused = await postCheckout(
      oneOf(soldOut),
      {},
      { file: { bytes: huge, name: "id.png", type: "image/png" } },
    );
    expect(refused).toMatchObject({ ok: false, status: 409, toast: { title: "Out of Stock" } });
  });

  it("counts every decode against the hourly ID photo budget: the 21st in an hour from one address is a 429", async () => {
    const { db } = database();
    expect(config().ID_UPLOADS_PER_HOUR).toBe(20);
    const clientAddress = "198.51.100.102";
    const product = await insertTestProduct(db, { priceCents: 9000 });
    // Two orders placed, eighteen photos that could not be read: twenty decodes.
    for (let i = 0; i < 2; i++) {
      expect((await postCheckout(oneOf(product), {}, { clientAddress })).ok).toBe(true);
    }
    for (let i = 0; i < 18; i++) {
      const refused = await postCheckout(oneOf(product), {}, { file: undecodablePhoto(), clientAddress });
      expect(refused).toMatchObject({ ok: false, status: 400, fieldErrors: { idFront: UNREADABLE } });
    }
    expect(await budgetUsed("idPhotoUpload", clientAddress)).toBe(20);

    const placedBefore = await db.$count(orders);
    const twentyFirst = await postCheckout(oneOf(product), {}, { file: await testIdPhoto(), clientAddress });
    expect(twentyFirst).toMatchObject({
      ok: false,
      status: 429,
      reason: "rate-limit",
      toast: { title: "Too many photos" },
    });
    if (twentyFirst.ok) return;
    expect(twentyFirst.retryAfterSeconds).toBeGreaterThan(3500);
    expect(twentyFirst.fieldErrors.idFront).toMatch(
      /^Too many photo uploads from this connection\. Please try again in \d+ minutes\.$/,
    );
    expect(await db.$count(orders)).toBe(placedBefore);
    // Another address still has its budget.
    expect((await postCheckout(oneOf(product), {}, { clientAddress: "198.51.100.103" })).ok).toBe(true);
  });

  it("answers a control character in any text field with 400 and that field's message, spending nothing", async () => {
    const { db } = database();
    const product = await insertTestProduct(db, { priceCents: 9000 });
    const clientAddress = "198.51.100.104";
    const cases = [
      ["name", "Ada\u0000Shopper", "Name contains a character that isn't allowed"],
      ["email", "ada\u0000@example.com", "Email contains a character that isn't allowed"],
      ["phone", "(202) 555-\u00004321", "Phone number contains a character that isn't allowed"],
      ["address", "1600 Example\u0000 Ave NW", "Street address contains a character that isn't allowed"],
      ["city", "Washing\u001bton", "City contains a character that isn't allowed"],
      ["notes", "Ring\u0000 twice", "Delivery instructions contains a character that isn't allowed"],
      ["name", "Ada\u007fShopper", "Name contains a character that isn't allowed"],
    ] as const;
    for (const [field, value, message] of cases) {
      const result = await postCheckout(oneOf(product), { [field]: value }, { clientAddress });
      expect(result, `${field}: ${JSON.stringify(value)}`).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { [field]: message },
      });
    }
    // Line breaks stay allowed in the delivery instructions.
    const multiline = await postCheckout(
      oneOf(product),
      { notes: "Ring twice\r\n\tthen wait" },
      { clientAddress },
    );
    expect(multiline.ok).toBe(true);
    if (!multiline.ok) return;
    expect((await placedOrderRow(multiline.token)).notes).toBe("Ring twice\r\n\tthen wait");
    expect(await budgetUsed("idPhotoUpload", clientAddress)).toBe(1);
  });
});
