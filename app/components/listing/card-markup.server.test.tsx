import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderCardMarkup } from "./card-markup.server.tsx";
import { cardMarkup } from "./card-markup.ts";
import { type CardProduct, ProductCardView } from "./product-card-view.tsx";

function product(overrides: Partial<CardProduct> = {}): CardProduct {
  return {
    id: "2f1f7a52-4a8e-4b43-9a53-0c5d2b8e7d11",
    slug: "blue-dream",
    name: "Blue Dream",
    description: "Sweet berry aroma & a calm, clear finish.",
    category: "Flower",
    strain: "Hybrid",
    thcPercentage: 21.5,
    thcMg: null,
    isFeatured: true,
    imageUrl: "/media/blue-dream.webp",
    sizes: [
      { id: "a", size: "3.5g", priceCents: 4500, salePriceCents: 4000, inStock: true, left: 3 },
      { id: "b", size: "7g", priceCents: 8000, salePriceCents: null, inStock: false },
    ],
    ...overrides,
  };
}

describe("cached card markup (server)", () => {
  it("is what React renders for the card, and is provided to the listing's cells once imported", () => {
    const expected = renderToString(
      <ProductCardView product={product()} priority={false} addItem={() => {}} navigate={() => {}} />,
    );
    expect(renderCardMarkup(product())).toBe(expected);
    expect(cardMarkup(product())).toBe(expected);
    expect(expected).toContain("Blue Dream");
    expect(expected).toContain('loading="lazy"');
  });

  it("renders anew when anything of the product changes, and not otherwise", () => {
    const first = renderCardMarkup(product());
    expect(renderCardMarkup(product())).toBe(first);
    const cheaper = renderCardMarkup(
      product({
        sizes: [{ id: "a", size: "3.5g", priceCents: 4500, salePriceCents: 3500, inStock: true, left: 3 }],
      }),
    );
    expect(cheaper).not.toBe(first);
    expect(cheaper).toContain("$35.00");
    const renamed = renderCardMarkup(product({ name: "Blue Dream <Reserve>" }));
    expect(renamed).toContain("Blue Dream &lt;Reserve&gt;");
    expect(renamed).not.toContain("<Reserve>");
  });
});
