export function meta() {
  return [{ title: "Age Verification" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Age Verification</h1>;
}
