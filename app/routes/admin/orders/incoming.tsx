export function meta() {
  return [{ title: "Incoming Orders" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Incoming Orders</h1>;
}
