export function meta() {
  return [{ title: "Capital Grown" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Capital Grown</h1>;
}
