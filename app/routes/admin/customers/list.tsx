import { data, Form, Link, redirect } from "react-router";
import { CustomerDataRequests } from "#app/components/admin/customer-data-requests.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input, Label } from "#app/components/ui/input.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { eraseGuestForStaff, searchCustomers } from "#app/features/customers/staff-customers.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { formatPhone } from "#app/utils/phone.ts";
import type { Route } from "./+types/list";

export function meta() {
  return [{ title: "Customers | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, 100);
  const erased = params.get("erased");
  return {
    q,
    erased: erased && /^\d{1,6}$/.test(erased) ? Number(erased) : null,
    results: q.trim() ? await searchCustomers(q) : null,
  };
}

/** Erasing a guest's data on request (record 057): the account page's erasure, for a guest. */
export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  if (form.get("intent") !== "erase-guest") throw data("Unknown action", { status: 400 });
  const email = String(form.get("email") ?? "").slice(0, 320);
  const result = await eraseGuestForStaff(email, auditBy(admin, context));
  if (result.ok) return redirect(`/admin/customers?erased=${result.anonymisedOrders}`);
  return data({ message: result.error }, { status: 409 });
}

export default function Customers({ loaderData, actionData }: Route.ComponentProps) {
  const { q, results, erased } = loaderData;
  return (
    <>
      <AdminPageHeader
        title="Customers"
        description="Find a customer by name, phone or e-mail: accounts, and guests known only by their orders."
      />
      {erased !== null ? (
        <p role="status" className="mb-4 rounded-md bg-secondary px-4 py-3 text-secondary-foreground text-sm">
          Customer data erased. {erased} order{erased === 1 ? "" : "s"} kept for the books without personal
          data.
        </p>
      ) : null}
      {actionData ? (
        <p role="alert" className="mb-4 rounded-md bg-destructive/10 px-4 py-3 text-destructive text-sm">
          {actionData.message}
        </p>
      ) : null}
      <Form method="get" role="search" className="mb-6 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Label htmlFor="customer-search-q">Name, phone or e-mail</Label>
          <Input id="customer-search-q" type="search" name="q" defaultValue={q} maxLength={100} />
        </div>
        <Button type="submit">Search</Button>
      </Form>
      {results === null ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-12 text-center text-muted-foreground">
          Type a name, a phone number or an e-mail address.
        </p>
      ) : results.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-12 text-center text-muted-foreground">
          No customer matches “{q}”.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Customers found">
          {results.map((row) => (
            <li key={row.email}>
              <Card className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {row.name || "(no name)"}
                    {row.kind === "account" ? (
                      <Badge variant="primary">Account</Badge>
                    ) : (
                      <Badge variant="outline">Guest, no account</Badge>
                    )}
                  </p>
                  <p className="break-all text-muted-foreground text-sm">{row.email}</p>
                  <p className="text-muted-foreground text-sm">
                    {row.phone ? `${formatPhone(row.phone)} · ` : ""}
                    {row.orders} order{row.orders === 1 ? "" : "s"}
                  </p>
                </div>
                {row.kind === "account" ? (
                  <Link
                    to={`/admin/customers/${row.id}`}
                    className="inline-flex min-h-11 items-center font-medium text-primary underline"
                  >
                    Open customer
                  </Link>
                ) : (
                  <span className="flex flex-wrap items-center gap-x-4 gap-y-2">
                    <Link
                      to={`/admin/orders?q=${encodeURIComponent(row.email)}`}
                      className="inline-flex min-h-11 items-center font-medium text-primary underline"
                    >
                      Open orders
                    </Link>
                    <Link
                      to={`/admin/completed-orders?q=${encodeURIComponent(row.email)}`}
                      className="inline-flex min-h-11 items-center font-medium text-primary underline"
                    >
                      Past orders
                    </Link>
                    <CustomerDataRequests
                      exportHref={`/admin/customers/guest-export?email=${encodeURIComponent(row.email)}`}
                      erase={{ intent: "erase-guest", fields: { email: row.email } }}
                      who={row.name || row.email}
                      description="Their orders stay for the books with name, e-mail, phone, address and notes removed; ID photos are deleted. Refused while an order is open. This cannot be undone."
                    />
                  </span>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
