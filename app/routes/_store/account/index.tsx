import { useEffect } from "react";
import { data, Form, redirect, useFetcher, useNavigation } from "react-router";
import { AddPasskey } from "#app/components/account/add-passkey.tsx";
import { useCartActions } from "#app/components/cart-context.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { Badge, type BadgeVariant } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Field, Input, NativeSelect } from "#app/components/ui/input.tsx";
import { db } from "#app/db/client.server.ts";
import { originOf } from "#app/features/audit/audit.server.ts";
import { privatePageMeta } from "#app/features/catalog/seo.ts";
import {
  type AccountOrder,
  accountOrders,
  deleteCustomerAccount,
  makeDefaultAddress,
  orderAgain,
  removeAddress,
  saveAddress,
  saveContact,
  savedAddresses,
} from "#app/features/customers/account.server.ts";
import { addressSchema, contactSchema } from "#app/features/customers/customer.schema.ts";
import {
  clearedCustomerSessionCookies,
  countCustomerSessions,
  deleteCustomerSession,
  endCustomerSessions,
  readCustomerToken,
} from "#app/features/customers/customer-sessions.server.ts";
import { listPasskeys } from "#app/features/customers/passkeys.server.ts";
import { customerIdFile, forgetIdOnFile } from "#app/features/media/id-on-file.server.ts";
import { idOnFileText } from "#app/features/media/id-on-file.ts";
import { type OrderStatus, STATUS_LABELS } from "#app/features/orders/order-status.ts";
import { customerForm, requireCustomer } from "#app/routes/shared/customer-session.server.ts";
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";
import { formatCents } from "#app/utils/money.ts";
import { normalizePhone } from "#app/utils/phone.server.ts";
import { formatPhone, PHONE_INVALID_MESSAGE } from "#app/utils/phone.ts";
import { formatStoreDate, STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { redirectWithToast, toastHeader } from "#app/utils/toast.server.ts";
import { toast } from "#app/utils/toast-client.ts";
import type { Route } from "./+types/index";

export function meta({ matches }: Route.MetaArgs) {
  return privatePageMeta(matches, "Your account");
}

export { privateNoStoreHeaders as headers } from "#app/utils/cache-headers.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const customer = await requireCustomer(request);
  const before = new URL(request.url).searchParams.get("before") ?? undefined;
  const [orders, addresses, passkeys, sessions] = await Promise.all([
    accountOrders(customer, { before }),
    savedAddresses(customer.customerId),
    listPasskeys(customer.customerId),
    countCustomerSessions(await db(), customer.customerId),
  ]);
  const idFile = await customerIdFile(customer.customerId);
  return {
    customer: {
      email: customer.email,
      name: customer.name,
      phone: customer.phone ? formatPhone(customer.phone) : "",
    },
    csrf: customer.csrfToken,
    orders: orders.orders,
    olderOrders: orders.more,
    olderPage: Boolean(before),
    addresses,
    passkeys,
    sessions,
    idFile,
  };
}

type FieldErrors = Partial<Record<string, string>>;

export async function action({ request, context }: Route.ActionArgs) {
  const customer = await requireCustomer(request);
  const form = await customerForm(request, customer);
  const intent = String(form.get("intent") ?? "");
  const fail = (error: string, fieldErrors: FieldErrors = {}, status = 400) =>
    data({ ok: false as const, intent, error, fieldErrors }, { status, headers: PRIVATE_NO_STORE });
  switch (intent) {
    case "order-again": {
      const result = await orderAgain(customer.customerId, String(form.get("orderId") ?? ""));
      if (!result.ok) return fail(result.error, {}, 404);
      const { lines, unavailable, reduced } = result;
      return data({ ok: true as const, intent, lines, unavailable, reduced }, { headers: PRIVATE_NO_STORE });
    }
    case "save-address": {
      const parsed = addressSchema.safeParse({
        street: form.get("street") ?? "",
        city: form.get("city") ?? "",
        state: form.get("state") ?? "",
        zipCode: form.get("zipCode") ?? "",
        isDefault: form.get("isDefault") === "on",
      });
      if (!parsed.success) {
        const fieldErrors: FieldErrors = {};
        for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
        return fail("Check the address.", fieldErrors);
      }
      const saved = await saveAddress(customer.customerId, parsed.data);
      if (!saved.ok) return fail(saved.error, saved.field ? { [saved.field]: saved.error } : {});
      return redirectWithToast("/account", { title: "Address saved" }, { headers: PRIVATE_NO_STORE });
    }
    case "default-address":
      await makeDefaultAddress(customer.customerId, String(form.get("addressId") ?? ""));
      return redirectWithToast(
        "/account",
        { title: "Default address changed" },
        { headers: PRIVATE_NO_STORE },
      );
    case "remove-address":
      await removeAddress(customer.customerId, String(form.get("addressId") ?? ""));
      return redirectWithToast("/account", { title: "Address removed" }, { headers: PRIVATE_NO_STORE });
    case "save-contact": {
      const parsed = contactSchema.safeParse({
        name: form.get("name") ?? "",
        phone: form.get("phone") ?? "",
      });
      if (!parsed.success) return fail("Check your details.", { name: parsed.error.issues[0]?.message });
      const phone = parsed.data.phone ? normalizePhone(parsed.data.phone) : "";
      if (phone === null) return fail(PHONE_INVALID_MESSAGE, { phone: PHONE_INVALID_MESSAGE });
      await saveContact(customer.customerId, { name: parsed.data.name, phone });
      return redirectWithToast("/account", { title: "Details saved" }, { headers: PRIVATE_NO_STORE });
    }
    case "sign-out":
    case "sign-out-everywhere": {
      if (intent === "sign-out-everywhere") await endCustomerSessions(await db(), customer.customerId);
      else await deleteCustomerSession(await db(), readCustomerToken(request));
      const headers = new Headers(PRIVATE_NO_STORE);
      for (const cookie of clearedCustomerSessionCookies()) headers.append("Set-Cookie", cookie);
      headers.append("Set-Cookie", await toastHeader({ path: "/", title: "You are signed out" }));
      return redirect("/", { headers });
    }
    case "forget-id": {
      await forgetIdOnFile(customer.customerId, originOf(context));
      return redirectWithToast(
        "/account",
        { title: "ID removed", description: "Your ID photo on file is deleted." },
        { headers: PRIVATE_NO_STORE },
      );
    }
    case "delete-account": {
      if (form.get("confirm") !== "on") {
        return fail("Tick the box to confirm that you want to delete your account.", {
          confirm: "Tick the box to confirm.",
        });
      }
      const deleted = await deleteCustomerAccount(customer.customerId, originOf(context));
      if (!deleted.ok) return fail(deleted.error, {}, 409);
      const headers = new Headers(PRIVATE_NO_STORE);
      for (const cookie of clearedCustomerSessionCookies()) headers.append("Set-Cookie", cookie);
      headers.append(
        "Set-Cookie",
        await toastHeader({
          path: "/",
          title: "Your account is deleted",
          description: "Your orders are kept for our records without your name, contact details or address.",
        }),
      );
      return redirect("/", { headers });
    }
    default:
      return fail("Unknown action.");
  }
}

const STATUS_BADGES: Record<OrderStatus, BadgeVariant> = {
  pending: "pending",
  confirmed: "confirmed",
  out_for_delivery: "confirmed",
  delivered: "delivered",
  cancelled: "cancelled",
  returning: "warning",
};

const when = new Intl.DateTimeFormat("en-US", {
  timeZone: STORE_TIME_ZONE,
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, csrf, orders, olderOrders, olderPage, addresses, passkeys, sessions } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = actionData && !actionData.ok ? actionData : null;
  const errorOf = (intent: string, field?: string) =>
    errors?.intent === intent ? (field ? errors.fieldErrors?.[field] : errors.error) : undefined;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 pt-6 pb-28 sm:pt-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-display text-3xl font-semibold text-primary sm:text-4xl">Your account</h1>
          <p className="mt-1 text-muted-foreground">Signed in as {customer.email}</p>
        </div>
        <AccountForm csrf={csrf} className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="sign-out" variant="outline" className="min-h-11">
            Sign out
          </Button>
          {sessions > 1 ? (
            <Button
              type="submit"
              name="intent"
              value="sign-out-everywhere"
              variant="ghost"
              className="min-h-11"
            >
              Sign out on all {sessions} devices
            </Button>
          ) : null}
        </AccountForm>
      </div>

      <AccountSection id="orders" title="Your orders" className="mt-8">
        {orders.length === 0 ? (
          <Card className="mt-4 p-6 text-center">
            <p>No orders yet.</p>
            <StoreLink to="/shop" className={buttonVariants({ className: "mt-4" })}>
              Shop the menu
            </StoreLink>
          </Card>
        ) : (
          <ul className="mt-4 space-y-4">
            {orders.map((order) => (
              <li key={order.id}>
                <OrderCard order={order} csrf={csrf} />
              </li>
            ))}
          </ul>
        )}
        <div className="mt-4 flex gap-3">
          {olderPage ? (
            <StoreLink
              to="/account"
              className={buttonVariants({ variant: "outline", className: "min-h-11" })}
            >
              Newest orders
            </StoreLink>
          ) : null}
          {olderOrders ? (
            <StoreLink
              to={`/account?before=${olderOrders}`}
              className={buttonVariants({ variant: "outline", className: "min-h-11" })}
            >
              Show older orders
            </StoreLink>
          ) : null}
        </div>
      </AccountSection>

      <AccountSection id="addresses" title="Saved addresses">
        {addresses.length === 0 ? (
          <p className="mt-2 text-muted-foreground">
            No saved addresses yet. Checkout fills in your default one.
          </p>
        ) : (
          <ul className="mt-4 grid gap-3 sm:grid-cols-2">
            {addresses.map((address) => (
              <li key={address.id}>
                <Card className="flex h-full flex-col gap-3 p-4">
                  <p>
                    {address.street}
                    <br />
                    {address.city}, {address.state} {address.zipCode}
                  </p>
                  {address.isDefault ? (
                    <Badge variant="primary" className="self-start">
                      Default
                    </Badge>
                  ) : null}
                  <AccountForm csrf={csrf} className="mt-auto flex flex-wrap gap-2">
                    <input type="hidden" name="addressId" value={address.id} />
                    {address.isDefault ? null : (
                      <Button
                        type="submit"
                        name="intent"
                        value="default-address"
                        variant="outline"
                        className="min-h-11"
                      >
                        Make default
                      </Button>
                    )}
                    <Button
                      type="submit"
                      name="intent"
                      value="remove-address"
                      variant="ghostDestructive"
                      className="min-h-11"
                    >
                      Remove
                    </Button>
                  </AccountForm>
                </Card>
              </li>
            ))}
          </ul>
        )}
        <Card className="mt-4 p-4 sm:p-6">
          <h3 className="font-semibold">Add an address</h3>
          {/* A saved address empties the form (it mounts again). */}
          <AccountForm
            csrf={csrf}
            key={addresses.length}
            className="mt-3 grid gap-4 sm:grid-cols-2"
            noValidate
          >
            <Field
              id="street"
              label="Street address"
              error={errorOf("save-address", "street")}
              className="sm:col-span-2"
            >
              <Input id="street" name="street" autoComplete="street-address" required />
            </Field>
            <Field id="city" label="City" error={errorOf("save-address", "city")}>
              <Input id="city" name="city" autoComplete="address-level2" required />
            </Field>
            <Field id="state" label="State" error={errorOf("save-address", "state")}>
              <NativeSelect id="state" name="state" defaultValue="DC">
                <option value="DC">Washington, DC</option>
                <option value="VA">Virginia</option>
              </NativeSelect>
            </Field>
            <Field id="zipCode" label="ZIP code" error={errorOf("save-address", "zipCode")}>
              <Input id="zipCode" name="zipCode" inputMode="numeric" autoComplete="postal-code" required />
            </Field>
            <label className="flex min-h-11 items-center gap-2 self-end">
              <input type="checkbox" name="isDefault" className="size-5 accent-primary" />
              Make this my default address
            </label>
            <div className="sm:col-span-2">
              <Button type="submit" name="intent" value="save-address" disabled={busy} className="min-h-11">
                Save address
              </Button>
            </div>
          </AccountForm>
        </Card>
      </AccountSection>

      <AccountSection id="contact" title="Contact details">
        <Card className="mt-4 p-4 sm:p-6">
          <AccountForm
            csrf={csrf}
            key={`${customer.name}|${customer.phone}`}
            className="grid gap-4 sm:grid-cols-2"
            noValidate
          >
            <Field id="name" label="Full name" error={errorOf("save-contact", "name")}>
              <Input id="name" name="name" autoComplete="name" defaultValue={customer.name} />
            </Field>
            <Field id="phone" label="Phone" error={errorOf("save-contact", "phone")}>
              <Input id="phone" name="phone" type="tel" autoComplete="tel" defaultValue={customer.phone} />
            </Field>
            <p className="text-sm text-muted-foreground sm:col-span-2">E-mail: {customer.email}</p>
            <div className="sm:col-span-2">
              <Button type="submit" name="intent" value="save-contact" disabled={busy} className="min-h-11">
                Save details
              </Button>
            </div>
          </AccountForm>
        </Card>
      </AccountSection>

      <AccountSection id="passkeys" title="Passkeys">
        <p className="mt-2 text-muted-foreground">
          Sign in next time with your phone's or computer's screen lock instead of a code.
        </p>
        {passkeys.length > 0 ? (
          <ul className="mt-3 space-y-1 text-sm">
            {passkeys.map((passkey) => (
              <li key={passkey.id}>
                Passkey added {formatStoreDate(passkey.createdAt.slice(0, 10))}
                {passkey.lastUsedAt ? `, last used ${when.format(new Date(passkey.lastUsedAt))}` : ""}
              </li>
            ))}
          </ul>
        ) : null}
        <AddPasskey csrf={csrf} />
      </AccountSection>

      <AccountSection id="privacy" title="Privacy">
        <Card className="mt-4 space-y-6 p-4 sm:p-6">
          <div>
            <h3 className="font-semibold">Download my data</h3>
            <p className="mt-1 text-sm text-muted-foreground">
              Your account, addresses and orders as a JSON file.
            </p>
            <a
              href="/account/data"
              download
              className={buttonVariants({ variant: "outline", className: "mt-3 min-h-11" })}
            >
              Download my data
            </a>
          </div>
          {loaderData.idFile ? (
            <div>
              <h3 className="font-semibold">Your ID on file</h3>
              <p className="mt-1 text-sm text-muted-foreground">
                {loaderData.idFile.expiresOn
                  ? `${idOnFileText(loaderData.idFile.expiresOn)}. Your checkouts use it instead of a new photo.`
                  : "We check it with your order, then your next checkouts use it instead of a new photo."}
              </p>
              <AccountForm csrf={csrf} className="mt-3">
                <Button type="submit" name="intent" value="forget-id" variant="outline" className="min-h-11">
                  Remove my ID from file
                </Button>
              </AccountForm>
            </div>
          ) : null}
          <div>
            <h3 className="font-semibold text-destructive">Delete my account</h3>
            <p className="mt-1 text-sm text-muted-foreground">
              Your sign-in, addresses and passkeys are deleted, and your ID photos with them. Your orders stay
              in our books without your name, contact details or address.
            </p>
            <AccountForm csrf={csrf} className="mt-3 space-y-3">
              <label className="flex min-h-11 items-center gap-2">
                <input type="checkbox" name="confirm" className="size-5 accent-destructive" />I want to delete
                my account
              </label>
              {errorOf("delete-account") ? (
                <p role="alert" className="text-sm text-destructive">
                  {errorOf("delete-account")}
                </p>
              ) : null}
              <Button
                type="submit"
                name="intent"
                value="delete-account"
                variant="destructive"
                className="min-h-11"
              >
                Delete my account
              </Button>
            </AccountForm>
          </div>
        </Card>
      </AccountSection>
    </div>
  );
}

/** A post of the account page, with the session's CSRF token. */
function AccountForm({
  csrf,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Form>, "method"> & { csrf: string }) {
  return (
    <Form method="post" {...props}>
      <input type="hidden" name="csrf" value={csrf} />
      {children}
    </Form>
  );
}

/** A section of the account page, named by its heading. */
function AccountSection({
  id,
  title,
  className = "mt-10",
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`} className="font-display text-2xl font-semibold text-primary">
        {title}
      </h2>
      {children}
    </section>
  );
}

type OrderAgainAnswer =
  | {
      ok: true;
      lines: { item: Parameters<ReturnType<typeof useCartActions>["addItem"]>[0]; quantity: number }[];
      unavailable: string[];
      reduced: string[];
    }
  | { ok: false; error: string };

function OrderCard({ order, csrf }: { order: AccountOrder; csrf: string }) {
  const fetcher = useFetcher<OrderAgainAnswer>();
  const { addItem } = useCartActions();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!answer) return;
    if (!answer.ok) {
      toast.error(answer.error);
      return;
    }
    for (const line of answer.lines) addItem(line.item, line.quantity);
    if (answer.lines.length > 0)
      toast.success(`Added ${answer.lines.length} item${answer.lines.length === 1 ? "" : "s"} to your cart`);
  }, [answer, addItem]);
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold">
            Order {order.id.slice(0, 8).toUpperCase()} · {formatCents(order.totalAmountCents)}
          </p>
          <p className="text-sm text-muted-foreground">
            Delivery {formatStoreDate(order.deliveryDate)}, {order.deliveryTime}
          </p>
        </div>
        <Badge variant={STATUS_BADGES[order.status]}>{STATUS_LABELS[order.status]}</Badge>
      </div>
      <ul className="mt-3 text-sm">
        {order.items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never move
          <li key={index}>
            {item.quantity} × {item.productName} ({item.sizeLabel})
          </li>
        ))}
      </ul>
      <ol className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Timeline">
        {order.timeline.map((step, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only grows
          <li key={index}>
            <span className="font-medium text-foreground">
              {index === 0 ? "Placed" : STATUS_LABELS[step.status]}
            </span>{" "}
            {when.format(new Date(step.at))}
          </li>
        ))}
      </ol>
      {order.cancelReason ? <p className="mt-2 text-sm">Cancelled: {order.cancelReason}</p> : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <fetcher.Form method="post">
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="orderId" value={order.id} />
          <Button
            type="submit"
            name="intent"
            value="order-again"
            className="min-h-11"
            disabled={fetcher.state !== "idle"}
          >
            Order again
          </Button>
        </fetcher.Form>
        <StoreLink
          to={`/thank-you?order=${encodeURIComponent(order.publicToken)}`}
          className={buttonVariants({ variant: "outline", className: "min-h-11" })}
        >
          View order
        </StoreLink>
      </div>
      {answer?.ok && (answer.unavailable.length > 0 || answer.reduced.length > 0) ? (
        <div role="status" className="mt-3 rounded-md border border-border bg-muted px-3 py-2 text-sm">
          {answer.unavailable.length > 0 ? (
            <p>No longer available, not added: {answer.unavailable.join(", ")}.</p>
          ) : null}
          {answer.reduced.length > 0 ? (
            <p>Fewer in stock, quantity lowered: {answer.reduced.join(", ")}.</p>
          ) : null}
          {answer.lines.length > 0 ? <p>Everything else is in your cart at today's prices.</p> : null}
        </div>
      ) : answer?.ok && answer.lines.length > 0 ? (
        <p role="status" className="mt-3 text-sm">
          In your cart at today's prices.
        </p>
      ) : null}
    </Card>
  );
}
