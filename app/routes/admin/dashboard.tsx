export function meta() {
  return [{ title: "Admin Dashboard" }];
}

export default function Page() {
  return <h1 className="p-8 font-display text-3xl">Admin Dashboard</h1>;
}
