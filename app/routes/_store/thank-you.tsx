import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { storeFromMatches } from "#app/features/catalog/seo.ts";
import { formatDeliveryDate } from "#app/features/checkout/delivery-slots.ts";
import { getOrderOfRequest } from "#app/features/orders/orders.server.ts";
import { formatCents } from "#app/utils/money.ts";
import type { Route } from "./+types/thank-you";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: `Thank you | ${storeFromMatches(matches).name}` }, { name: "robots", content: "noindex" }];
}

export { privateNoStoreHeaders as headers } from "#app/utils/cache-headers.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const order = await getOrderOfRequest(request);
  if (!order) return { order: null };
  return {
    order: {
      id: order.id,
      token: order.publicToken,
      customerName: order.customerName,
      userEmail: order.userEmail,
      phone: order.phone,
      deliveryAddress: order.deliveryAddress,
      deliveryDate: order.deliveryDate,
      deliveryTime: order.deliveryTime,
      totalAmountCents: order.totalAmountCents,
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

export default function ThankYouPage({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  if (!order) return <OrderNotFound />;
  const firstName = order.customerName.split(/\s+/)[0] ?? order.customerName;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-8 pb-28 sm:pt-12">
      <div className="text-center">
        <Icon name="circle-check" className="mx-auto size-14 text-success" />
        <h1 className="mt-4 font-display text-3xl font-semibold text-primary sm:text-4xl">
          Thank you, {firstName}!
        </h1>
        <p className="mt-2 text-muted-foreground">
          Your order <span className="font-semibold text-foreground">#{order.id.slice(0, 8)}</span> has been
          placed.
        </p>
      </div>

      <Card className="mt-8 p-5 sm:p-6">
        <h2 className="font-display text-xl font-semibold">Order details</h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <Detail label="Delivery time">
            {formatDeliveryDate(order.deliveryDate)}, {order.deliveryTime}
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
        <div className="mt-4 flex items-center gap-3 rounded-md bg-honey-100 px-4 py-3">
          <Icon name="banknote" className="size-5 shrink-0 text-honey-700" />
          <div>
            <p className="font-semibold">Cash on Delivery</p>
            <p className="text-sm">Payment due at delivery</p>
          </div>
        </div>
      </Card>

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
            Prepare the exact amount in cash: <strong>{formatCents(order.totalAmountCents)}</strong>.
          </NextStep>
        </ul>
      </Card>

      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Link to="/shop" className={buttonVariants({ size: "lg" })}>
          Continue Shopping
        </Link>
        <Link to="/" className={buttonVariants({ size: "lg", variant: "outline" })}>
          Back to Home
        </Link>
      </div>
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Bookmark this page to come back to your order, or{" "}
        <Link
          to={`/order-confirmation?order=${encodeURIComponent(order.token)}`}
          className="font-medium text-primary underline underline-offset-4"
        >
          check its status
        </Link>
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
      <Link to="/shop" className={buttonVariants({ size: "lg", className: "mt-6" })}>
        Continue Shopping
      </Link>
    </div>
  );
}
