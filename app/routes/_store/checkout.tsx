export function meta() {
  return [{ title: "Checkout" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Checkout</h1>;
}
