import { formatCents } from "#app/utils/money.ts";

type Day = { day: string; orders: number; revenueCents: number };

const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const label = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));

/** Orders (bars) and revenue (line) for the last 30 days, drawn as plain SVG: no chart library. */
export function OrdersChart({ days }: { days: Day[] }) {
  const width = 600;
  const height = 160;
  const pad = 4;
  const maxOrders = Math.max(1, ...days.map((day) => day.orders));
  const maxRevenue = Math.max(1, ...days.map((day) => day.revenueCents));
  const slot = (width - pad * 2) / days.length;
  const points = days
    .map((day, index) => {
      const x = pad + slot * index + slot / 2;
      const y = height - pad - (day.revenueCents / maxRevenue) * (height - pad * 2);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
  const totalOrders = days.reduce((sum, day) => sum + day.orders, 0);
  const totalRevenue = days.reduce((sum, day) => sum + day.revenueCents, 0);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-40 w-full"
        role="img"
        aria-label={`Last 30 days: ${totalOrders} orders, ${formatCents(totalRevenue)} revenue`}
        preserveAspectRatio="none"
      >
        {days.map((day, index) => {
          const barHeight = (day.orders / maxOrders) * (height - pad * 2);
          return (
            <rect
              key={day.day}
              x={pad + slot * index + slot * 0.15}
              y={height - pad - barHeight}
              width={slot * 0.7}
              height={Math.max(barHeight, day.orders > 0 ? 2 : 0)}
              rx={2}
              className="fill-forest-200"
            >
              <title>{`${label(day.day)}: ${day.orders} orders, ${formatCents(day.revenueCents)}`}</title>
            </rect>
          );
        })}
        <polyline
          points={points}
          fill="none"
          className="stroke-honey-500"
          strokeWidth={2.5}
          vectorEffect="non-scaling-stroke"
          strokeLinejoin="round"
        />
      </svg>
      <figcaption className="mt-2 flex flex-wrap items-center justify-between gap-2 text-muted-foreground text-xs">
        <span>{label(days[0]?.day ?? "")}</span>
        <span className="flex items-center gap-3">
          <span className="flex items-center gap-1">
            <span className="inline-block size-2.5 rounded-sm bg-forest-200" aria-hidden /> Orders
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block h-0.5 w-3 bg-honey-500" aria-hidden /> Revenue
          </span>
        </span>
        <span>{label(days[days.length - 1]?.day ?? "")}</span>
      </figcaption>
    </figure>
  );
}
