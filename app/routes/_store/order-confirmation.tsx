export function meta() {
  return [{ title: "Order confirmation" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Order confirmation</h1>;
}
