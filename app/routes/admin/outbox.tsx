export function meta() {
  return [{ title: "Outbox" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Outbox</h1>;
}
