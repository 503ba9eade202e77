import { data, Form } from "react-router";
import { OrderPaymentNote } from "#app/components/order-payment-note.tsx";
import { OrderStatusMark } from "#app/components/order-status-mark.tsx";
import { StoreLink } from "#app/components/store-link.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { privatePageMeta } from "#app/features/catalog/seo.ts";
import { cancelOrderByCustomer } from "#app/features/orders/admin-orders.server.ts";
import { cashToPrepareText } from "#app/features/orders/customer-payment.ts";
import { driverFirstNameFor } from "#app/features/orders/driver-assignment.server.ts";
import { customerCancelSchema } from "#app/features/orders/order-status.schema.ts";
import { cancelReasonForCustomer, type OrderStatus } from "#app/features/orders/order-status.ts";
import { getOrderOfRequest, getOrderTimeline } from "#app/features/orders/orders.server.ts";
import { readFormData } from "#app/utils/form-data.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { formatStoreDate, STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/thank-you";

export function meta({ matches }: Route.MetaArgs) {
  return privatePageMeta(matches, "Thank you");
}

export { privateNoStoreHeaders as headers } from "#app/utils/cache-headers.ts";

const stepTime = new Intl.DateTimeFormat("en-US", {
  timeZone: STORE_TIME_ZONE,
  weekday: "short",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/** The customer's order page (P-23): the thank-you words, the status timeline, 'Cancel order'. */
export async function loader({ request }: Route.LoaderArgs) {
  const order = await getOrderOfRequest(request);
  if (!order) return { order: null };
  const timeline = await getOrderTimeline(order);
  const driverFirstName = await driverFirstNameFor(order);
  const asking = new URL(request.url).searchParams.get("cancel") === "ask" && order.status === "pending";
  return {
    asking,
    order: {
      driverFirstName,
      id: order.id,
      token: order.publicToken,
      status: order.status,
      cancelReason: cancelReasonForCustomer(order.cancelReason),
      timeline: timeline.map((step) => ({
        status: step.status,
        at: step.at,
        atText: stepTime.format(new Date(step.at)),
      })),
      customerName: order.customerName,
      userEmail: order.userEmail,
      phone: formatPhone(order.phone),
      deliveryAddress: order.deliveryAddress,
      deliveryDate: order.deliveryDate,
      deliveryTime: order.deliveryTime,
      totalAmountCents: order.totalAmountCents,
      payWithCents: order.payWithCents,
      quantity: order.quantity,
      items: order.items.map((item) => ({
        id: item.id,
        productName: item.productName,
        sizeLabel: item.sizeLabel,
        quantity: item.quantity,
        totalPriceCents: item.totalPriceCents,
      })),
    },
  };
}

/** 'Cancel order' (two steps, no JavaScript needed): only a pending order, found by its token. */
export async function action({ request }: Route.ActionArgs) {
  const order = await getOrderOfRequest(request);
  if (!order) throw data("Order not found", { status: 404 });
  const parsed = customerCancelSchema.safeParse(Object.fromEntries(await readFormData(request)));
  const page = `/thank-you?order=${encodeURIComponent(order.publicToken)}`;
  if (!parsed.success) return redirectWithToast(page, { type: "error", title: "Nothing was changed" });
  const result = await cancelOrderByCustomer(order.id);
  if (result.ok) {
    return redirectWithToast(page, {
      title: "Your order is cancelled",
      description: "We have sent you an e-mail. Nothing is due.",
    });
  }
  return redirectWithToast(page, {
    type: "error",
    title: "This order can no longer be cancelled here",
    description: "It has been confirmed already. Please call us to change it.",
  });
}

const HEADLINES: Partial<Record<OrderStatus, string>> = {
  confirmed: "Your order is confirmed",
  out_for_delivery: "Your order is on its way",
  delivered: "Your order has been delivered",
  cancelled: "Your order is cancelled",
};

export default function ThankYouPage({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  if (!order) return <OrderNotFound />;
  const firstName = order.customerName.split(/\s+/)[0] ?? order.customerName;
  const headline = HEADLINES[order.status];
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-8 pb-28 sm:pt-12">
      <div className="text-center">
        <OrderStatusMark status={order.status} />
        <h1 className="mt-4 font-display text-3xl font-semibold text-primary sm:text-4xl">
          {headline ?? `Thank you, ${firstName}!`}
        </h1>
        <p className="mt-2 text-muted-foreground">
          Your order <span className="font-semibold text-foreground">#{order.id.slice(0, 8)}</span>{" "}
          {order.status === "cancelled"
            ? order.cancelReason
              ? `is cancelled because ${order.cancelReason}.`
              : "is cancelled."
            : order.status === "pending"
              ? "has been placed."
              : `for ${formatStoreDate(order.deliveryDate)}, ${order.deliveryTime}.`}
        </p>
        {order.driverFirstName ? (
          <p className="mt-3 inline-flex items-center gap-2 rounded-full bg-secondary px-4 py-2 font-semibold text-secondary-foreground">
            <Icon name="truck" className="size-4" /> Your driver is {order.driverFirstName}
          </p>
        ) : null}
      </div>

      <Timeline status={order.status} steps={order.timeline} />

      {order.status === "pending" ? (
        <CancelOrder token={order.token} asking={loaderData.asking ?? false} />
      ) : null}

      <Card className="mt-8 p-5 sm:p-6">
        <h2 className="font-display text-xl font-semibold">Order details</h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <Detail label="Delivery time">
            {formatStoreDate(order.deliveryDate)}, {order.deliveryTime}
          </Detail>
          <Detail label="Delivery address">{order.deliveryAddress}</Detail>
          <Detail label="Phone">{order.phone}</Detail>
          <Detail label="Email">{order.userEmail}</Detail>
          <Detail label="Quantity">
            {order.quantity} {order.quantity === 1 ? "item" : "items"}
          </Detail>
          <Detail label="Total">
            <span className="text-lg font-semibold">{formatCents(order.totalAmountCents)}</span>
          </Detail>
        </dl>
        <ul className="mt-5 divide-y divide-border border-t border-border">
          {order.items.map((item) => (
            <li key={item.id} className="flex justify-between gap-4 py-3 text-sm">
              <span>
                {item.quantity} × {item.productName}{" "}
                <span className="text-muted-foreground">({item.sizeLabel})</span>
              </span>
              <span className="font-medium tabular-nums">{formatCents(item.totalPriceCents)}</span>
            </li>
          ))}
        </ul>
        <OrderPaymentNote
          status={order.status}
          totalCents={order.totalAmountCents}
          payWithCents={order.payWithCents}
        />
      </Card>

      {order.status === "pending" ? <WhatsNext order={order} /> : null}
      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <StoreLink to="/shop" className={buttonVariants({ size: "lg" })}>
          Continue Shopping
        </StoreLink>
        <StoreLink to="/" className={buttonVariants({ size: "lg", variant: "outline" })}>
          Back to Home
        </StoreLink>
      </div>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Bookmark this page to come back to your order, or{" "}
        <StoreLink
          to={`/order-confirmation?order=${encodeURIComponent(order.token)}`}
          className="font-medium text-primary underline underline-offset-4"
        >
          check its status
        </StoreLink>
        .
      </p>
    </div>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium">{children}</dd>
    </div>
  );
}

function NextStep({ icon, children }: { icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <li className="flex items-start gap-3">
      <span
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-secondary text-primary [&_svg]:size-4"
        aria-hidden="true"
      >
        {icon}
      </span>
      <span className="pt-1.5">{children}</span>
    </li>
  );
}

function OrderNotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 pt-16 pb-28 text-center">
      <h1 className="font-display text-3xl font-semibold text-primary">Order Not Found</h1>
      <p className="mt-3 text-muted-foreground">We couldn't find your order details.</p>
      <StoreLink to="/shop" className={buttonVariants({ size: "lg", className: "mt-6" })}>
        Continue Shopping
      </StoreLink>
    </div>
  );
}

type PageOrder = NonNullable<Route.ComponentProps["loaderData"]["order"]>;

function WhatsNext({ order }: { order: PageOrder }) {
  return (
    <Card className="mt-6 p-5 sm:p-6">
      <h2 className="font-display text-xl font-semibold">What's Next?</h2>
      <ul className="mt-4 space-y-4">
        <NextStep icon={<Icon name="mail" />}>
          You'll receive a confirmation email at <strong>{order.userEmail}</strong>.
        </NextStep>
        <NextStep icon={<Icon name="phone" />}>
          Our team will call you at <strong>{order.phone}</strong> to confirm your delivery.
        </NextStep>
        <NextStep icon={<Icon name="id-card" />}>Have your ID ready: we check it in person (21+).</NextStep>
        <NextStep icon={<Icon name="banknote" />}>
          {cashToPrepareText(order.totalAmountCents, order.payWithCents)}
        </NextStep>
      </ul>
    </Card>
  );
}

const STEP_LABELS: Record<OrderStatus, string> = {
  pending: "Order placed",
  confirmed: "Confirmed",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  cancelled: "Cancelled",
  returning: "Could not deliver",
};

/** Where the order goes from each status, for the steps still to come. */
const STILL_TO_COME: Record<OrderStatus, OrderStatus[]> = {
  pending: ["confirmed", "out_for_delivery", "delivered"],
  confirmed: ["out_for_delivery", "delivered"],
  out_for_delivery: ["delivered"],
  delivered: [],
  cancelled: [],
  returning: [],
};

/** The order's steps with their times, then the steps still to come (greyed). */
function Timeline({ status, steps }: { status: OrderStatus; steps: PageOrder["timeline"] }) {
  return (
    <Card className="mt-8 p-5 sm:p-6">
      <h2 className="font-display text-xl font-semibold">Order status</h2>
      <ol className="mt-4" aria-label="Order status">
        {steps.map((step, index) => {
          const current = index === steps.length - 1;
          return (
            <li key={`${step.status}-${step.at}`} className="relative flex gap-3 pb-5 last:pb-0">
              <span
                aria-hidden="true"
                className={`mt-1 flex size-5 shrink-0 items-center justify-center rounded-full ${
                  step.status === "cancelled" ? "bg-destructive" : "bg-primary"
                } text-primary-foreground [&_svg]:size-3`}
              >
                <Icon name={step.status === "cancelled" ? "x" : "check"} />
              </span>
              <div>
                <p className={current ? "font-semibold" : "font-medium"}>
                  {STEP_LABELS[step.status]}
                  {current ? <span className="sr-only"> (current status)</span> : null}
                </p>
                <p className="text-sm text-muted-foreground">
                  <time dateTime={step.at}>{step.atText}</time>
                </p>
              </div>
            </li>
          );
        })}
        {STILL_TO_COME[status].map((next) => (
          <li key={next} className="flex gap-3 pb-5 text-muted-foreground last:pb-0">
            <span aria-hidden="true" className="mt-1 size-5 shrink-0 rounded-full border-2 border-border" />
            <p>
              {STEP_LABELS[next]}
              <span className="sr-only"> (not yet)</span>
            </p>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** 'Cancel order' while pending: a link to ask, then a form to confirm; both work without JavaScript. */
function CancelOrder({ token, asking }: { token: string; asking: boolean }) {
  const page = `/thank-you?order=${encodeURIComponent(token)}`;
  if (!asking) {
    return (
      <div className="mt-4 text-center">
        <StoreLink to={`${page}&cancel=ask`} className={buttonVariants({ variant: "outlineDestructive" })}>
          Cancel order
        </StoreLink>
      </div>
    );
  }
  return (
    <Card className="mt-4 border-destructive p-5 sm:p-6" role="region" aria-labelledby="cancel-order-title">
      <h2 id="cancel-order-title" className="font-display text-xl font-semibold">
        Cancel this order?
      </h2>
      <p className="mt-2 text-sm text-muted-foreground">
        We will not deliver it and nothing is due. You can place a new order at any time.
      </p>
      <Form
        method="post"
        action={page}
        className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"
      >
        <StoreLink to={page} className={buttonVariants({ variant: "outline" })}>
          Keep my order
        </StoreLink>
        <input type="hidden" name="intent" value="cancel-order" />
        <Button type="submit" name="confirm" value="yes" variant="destructive">
          Yes, cancel my order
        </Button>
      </Form>
    </Card>
  );
}
