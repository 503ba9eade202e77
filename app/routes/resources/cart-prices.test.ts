import { RouterContextProvider } from "react-router";
import { expect, it } from "vitest";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { insertTestProduct } from "#tests/support/checkout-test-helpers.server.ts";
import { loader as cartPricesLoader } from "./cart-prices.ts";

describeEachDatabase("/api/cart-prices", (database) => {
  it("serves sizes' weights and the limits to the browser through /api/cart-prices", async () => {
    const { db } = database();
    const flower = await insertTestProduct(db, { name: "Meter Mint" });
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { requestId: "test", clientAddress: "10.9.9.9", nonce: "test-nonce" });
    const response = await cartPricesLoader({
      request: new Request(`http://localhost/api/cart-prices?size=${flower.sizeId}`),
      context,
    } as never);
    const body = await (response as Response).json();
    expect(body.limits).toEqual({ stateLimitsMg: { DC: 56_000, VA: 28_000 }, maxQuantityPerSize: 10 });
    expect(body.sizes).toMatchObject([{ sizeId: flower.sizeId, flowerEquivalentMg: 3500 }]);
  });
});
