import { data, Link, redirect } from "react-router";
import { PostForm } from "#app/components/admin/csrf.tsx";
import { CustomerDataRequests } from "#app/components/admin/customer-data-requests.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Label, Textarea } from "#app/components/ui/input.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { STAFF_NOTE_MAX } from "#app/features/customers/customer.schema.ts";
import {
  eraseCustomerForStaff,
  saveStaffNote,
  staffCustomer,
} from "#app/features/customers/staff-customers.server.ts";
import { customerIdFile, idOnFileOf } from "#app/features/media/id-on-file.server.ts";
import { idOnFileText } from "#app/features/media/id-on-file.ts";
import { OPEN_STATUSES } from "#app/features/orders/order-status.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatPhone } from "#app/utils/phone.ts";
import type { Route } from "./+types/customer";

export function meta() {
  return [{ title: "Customer | Admin" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const customer = await staffCustomer(params.id);
  if (!customer) throw data("Customer not found", { status: 404 });
  const [kept, usable] = [await customerIdFile(params.id), await idOnFileOf(params.id)];
  // The ID on file (record 058): none, waiting for staff to verify it, usable, or past its expiry.
  const idFile = !kept
    ? "ID on file: none"
    : usable
      ? idOnFileText(usable.expiresOn)
      : kept.expiresOn
        ? `ID on file: expired (${kept.expiresOn})`
        : "ID on file: kept, waiting for staff to verify it on the order";
  return { customer, idFile };
}

export async function action({ params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  const intent = form.get("intent");
  if (intent === "note") {
    const saved = await saveStaffNote(params.id, String(form.get("note") ?? ""), auditBy(admin, context));
    if (!saved) throw data("Customer not found", { status: 404 });
    return { ok: true as const, message: "Note saved." };
  }
  if (intent === "erase") {
    const result = await eraseCustomerForStaff(params.id, auditBy(admin, context));
    if (result.ok) return redirect(`/admin/customers?erased=${result.anonymisedOrders}`);
    return data({ ok: false as const, message: result.error }, { status: 409 });
  }
  throw data("Unknown action", { status: 400 });
}

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

function orderLink(order: { id: string; status: string }) {
  const list = (OPEN_STATUSES as readonly string[]).includes(order.status) ? "orders" : "completed-orders";
  return `/admin/${list}?q=${order.id.slice(0, 8)}`;
}

export default function CustomerPage({ loaderData, actionData }: Route.ComponentProps) {
  const { customer } = loaderData;
  const open = customer.orders.filter((order) => (OPEN_STATUSES as readonly string[]).includes(order.status));
  return (
    <>
      <AdminPageHeader title={customer.name || customer.email} description={<>Account · {customer.email}</>}>
        <Link to="/admin/customers" className={buttonVariants({ variant: "outline" })}>
          Back to Customers
        </Link>
      </AdminPageHeader>
      {actionData ? (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={
            actionData.ok
              ? "mb-4 rounded-md bg-secondary px-4 py-3 text-secondary-foreground text-sm"
              : "mb-4 rounded-md bg-destructive/10 px-4 py-3 text-destructive text-sm"
          }
        >
          {actionData.message}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <section aria-labelledby="customer-orders" className="space-y-3">
          <h2 id="customer-orders" className="font-display text-primary text-xl">
            Orders ({customer.orders.length})
          </h2>
          {customer.orders.length === 0 ? (
            <p className="rounded-lg border border-border border-dashed bg-card px-6 py-8 text-center text-muted-foreground">
              No orders yet.
            </p>
          ) : (
            <ul className="space-y-2">
              {customer.orders.map((order) => (
                <li key={order.id}>
                  <Card className="flex flex-wrap items-center justify-between gap-2 p-4">
                    <div>
                      <Link to={orderLink(order)} className="font-medium text-primary underline">
                        Order #{order.id.slice(0, 8)}
                      </Link>
                      <p className="text-muted-foreground text-sm">
                        {when.format(new Date(order.createdAt))} · {formatCents(order.totalAmountCents)} ·
                        delivery {order.deliveryDate} {order.deliveryTime}
                      </p>
                      <p className="text-sm">
                        ID:{" "}
                        {order.status === "delivered"
                          ? "checked at the door"
                          : order.hasIdPhoto
                            ? "photo with the order"
                            : "no photo"}
                      </p>
                    </div>
                    <Badge
                      variant={
                        order.status === "delivered"
                          ? "delivered"
                          : order.status === "cancelled"
                            ? "cancelled"
                            : "pending"
                      }
                    >
                      {order.status.replaceAll("_", " ")}
                    </Badge>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className="space-y-4">
          <Card className="p-4">
            <h2 className="font-display text-primary text-xl">Contact</h2>
            <p className="mt-2 break-all text-sm">{customer.email}</p>
            <p className="text-sm">{customer.phone ? formatPhone(customer.phone) : "No phone given"}</p>
            <p className="mt-2 text-sm">{loaderData.idFile}</p>
          </Card>
          <Card className="p-4">
            <PostForm intent="note" className="space-y-2">
              <Label htmlFor="staff-note">Staff note</Label>
              <Textarea
                id="staff-note"
                name="note"
                rows={4}
                maxLength={STAFF_NOTE_MAX}
                defaultValue={customer.staffNote}
              />
              <p className="text-muted-foreground text-xs">Seen by staff only.</p>
              <Button type="submit">Save note</Button>
            </PostForm>
          </Card>
          <Card className="space-y-3 p-4">
            <h2 className="font-display text-primary text-xl">Data on request</h2>
            <CustomerDataRequests
              exportHref={`/admin/customers/${customer.id}/export`}
              erase={{ intent: "erase", fields: { customerId: customer.id } }}
              who={customer.name || customer.email}
              description="The account, its addresses and passkeys go; orders stay for the books with name, e-mail, phone, address and notes removed; ID photos are deleted. This cannot be undone."
            >
              {open.length > 0 ? (
                <p className="mt-1 text-muted-foreground text-xs">
                  An order is still open: erasing is refused until it ends.
                </p>
              ) : null}
            </CustomerDataRequests>
          </Card>
        </div>
      </div>
    </>
  );
}
