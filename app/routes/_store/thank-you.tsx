export function meta() {
  return [{ title: "Thank you" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Thank you</h1>;
}
