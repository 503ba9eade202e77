export function meta() {
  return [{ title: "Products" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Products</h1>;
}
