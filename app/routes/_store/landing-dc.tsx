export function meta() {
  return [{ title: "Washington DC Weed Delivery" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Washington DC Weed Delivery</h1>;
}
