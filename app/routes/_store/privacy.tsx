export function meta() {
  return [{ title: "Privacy Policy" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Privacy Policy</h1>;
}
