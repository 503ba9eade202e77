export function meta() {
  return [{ title: "Edit Product" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Edit Product</h1>;
}
