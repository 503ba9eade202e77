export function meta() {
  return [{ title: "Completed Orders" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Completed Orders</h1>;
}
