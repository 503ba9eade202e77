export function meta() {
  return [{ title: "Category" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Category</h1>;
}
