export function meta() {
  return [{ title: "Product" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Product</h1>;
}
