import { listProducts } from "#app/features/catalog/catalog.server.ts";
import { formatCents } from "#app/utils/money.ts";
import type { Route } from "./+types/shop";

export async function loader() {
  return { products: await listProducts() };
}

export function meta() {
  return [{ title: "Shop | Capital Grown" }];
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="font-display text-3xl text-primary">All Products</h1>
      <ul className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
        {loaderData.products.map((product) => (
          <li key={product.id} className="rounded-lg border border-border bg-card p-3">
            <p className="font-semibold">{product.name}</p>
            <p className="text-sm text-muted-foreground">{product.category}</p>
            {product.sizes[0] ? <p>{formatCents(product.sizes[0].priceCents)}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
