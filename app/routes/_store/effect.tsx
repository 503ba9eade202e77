export function meta() {
  return [{ title: "Effect" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Effect</h1>;
}
