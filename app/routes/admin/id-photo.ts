export function loader() {
  return new Response("Unauthorized", { status: 401 });
}
