export function meta() {
  return [{ title: "Terms of Service" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Terms of Service</h1>;
}
