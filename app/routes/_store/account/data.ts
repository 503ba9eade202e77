/** 'Download my data' (record 053): everything the shop keeps about the signed-in customer, as JSON. */
import { customerDataExport } from "#app/features/customers/account.server.ts";
import { requireCustomer } from "#app/routes/shared/customer-session.server.ts";
import type { Route } from "./+types/data";

export async function loader({ request }: Route.LoaderArgs) {
  const customer = await requireCustomer(request);
  const exported = await customerDataExport(customer);
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="my-data.json"',
      "Cache-Control": "private, no-store",
    },
  });
}
