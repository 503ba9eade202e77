/** 'Download my data' (record 053): everything the shop keeps about the signed-in customer, as JSON. */
import { customerDataExport } from "#app/features/customers/account.server.ts";
import { requireCustomer } from "#app/routes/shared/customer-session.server.ts";
import { jsonDownload } from "#app/routes/shared/private-responses.server.ts";
import type { Route } from "./+types/data";

export async function loader({ request }: Route.LoaderArgs) {
  const customer = await requireCustomer(request);
  const exported = await customerDataExport(customer);
  return jsonDownload(exported, "my-data.json");
}
