import { data } from "react-router";
import { DeliverySettingsScreen } from "#app/components/admin/delivery-settings.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { deliverySettingsScreen, handleDeliveryPost } from "#app/features/orders/delivery-admin.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/delivery";

export function meta() {
  return [{ title: "Delivery | Admin" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return deliverySettingsScreen();
}

export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const result = await handleDeliveryPost(adminForm(context), new Date(), auditBy(admin, context));
  if (!result.ok) {
    const asking = result.closing && Object.keys(result.fieldErrors).length === 0;
    return data(
      { form: result.form, fieldErrors: result.fieldErrors, closing: result.closing ?? null },
      { status: asking ? 200 : 400 },
    );
  }
  return redirectWithToast("/admin/settings/delivery", {
    type: "success",
    title: "Success",
    description: result.message,
  });
}

export default function DeliverySettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl">
      <AdminPageHeader
        title="Delivery"
        description="Where the shop delivers, how many orders each delivery time takes, the same-day cut-off and days off."
      />
      <DeliverySettingsScreen {...loaderData} failed={actionData ?? null} />
    </div>
  );
}
