export function meta() {
  return [{ title: "Add New Product" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Add New Product</h1>;
}
