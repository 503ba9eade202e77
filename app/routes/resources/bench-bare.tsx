/**
 * `npm run bench` reference only (in a bench build alone, app/server/bench.server.ts): a bare React Router page with the
 * same data as /shop (the same four queries as its loader), rendered as plain markup. Its CPU per
 * request is what a cold /shop render is compared with.
 */
import { useLoaderData } from "react-router";
import { productPath, unitPriceCents } from "#app/features/catalog/catalog.ts";
import { loadHighlight, loadListing } from "#app/features/catalog/listing.server.ts";

export async function loader() {
  const base = { category: null, search: "" };
  const [deals, featured, onSale, all] = await Promise.all([
    loadHighlight({ ...base, dealsOnly: true }, 4),
    loadHighlight({ ...base, featuredOnly: true }, 4),
    loadHighlight({ ...base, onSaleOnly: true }, 4),
    loadListing(base, 1),
  ]);
  return { deals, featured, onSale, all };
}

/** Inline, so this page loads no storefront code: its first-load JS is the framework's own. */
function dollars(cents: number) {
  return `$${(cents / 100).toFixed(2)}`;
}

export default function BenchBare() {
  const { deals, featured, onSale, all } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>All Products</h1>
      {[deals, featured, onSale, all.products].map((list, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: four fixed lists
        <ul key={index}>
          {list.map((product) => (
            <li key={product.id}>
              <a href={productPath(product)}>{product.name}</a> {product.category}{" "}
              {product.sizes[0] ? dollars(unitPriceCents(product.sizes[0])) : ""}
            </li>
          ))}
        </ul>
      ))}
    </main>
  );
}
