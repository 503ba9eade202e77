import { data, Link } from "react-router";
import { z } from "zod";
import { BackupPanel, type BackupSummary } from "#app/components/admin/backup-panel.tsx";
import { CashDifferencesPanel } from "#app/components/admin/cash-differences-panel.tsx";
import { KeyBackupBanner, type KeyBackupBannerData } from "#app/components/admin/key-backup-banner.tsx";
import { LowStockPanel, type LowStockSummary } from "#app/components/admin/low-stock-panel.tsx";
import { OrdersChart } from "#app/components/admin/orders-chart.tsx";
import { AdminPageHeader, HeaderLink } from "#app/components/admin/page-header.tsx";
import { StatusBadge } from "#app/components/admin/status-badge.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon, type IconName } from "#app/components/ui/icon.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { backupIsStale } from "#app/features/backups/backup-rules.ts";
import { lastBackupStatus } from "#app/features/backups/backup-service.server.ts";
import { listLowStock } from "#app/features/catalog/low-stock.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { confirmKeyBackup, keyBackupReminder } from "#app/features/media/id-photo-key-backup.server.ts";
import { type DashboardStats, getDashboardStats } from "#app/features/orders/admin-orders.server.ts";
import { type CashDifference, listCashDifferences } from "#app/features/orders/cash-sheet.server.ts";
import { getTodayFigures, type TodayFigures } from "#app/features/orders/day-board.server.ts";
import { adminForm, requireAdmin, requirePermission } from "#app/features/staff/guard.server.ts";
import { can } from "#app/features/staff/permissions.ts";
import { config } from "#app/utils/env.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { addStoreDays, STORE_TIME_ZONE, storeDay } from "#app/utils/store-time.ts";
import type { Route } from "./+types/dashboard";

export function meta() {
  return [{ title: "Admin Dashboard" }];
}

function backupSummary(): BackupSummary {
  const last = lastBackupStatus();
  return {
    at: last?.at ?? null,
    bytes: last?.bytes ?? null,
    verified: last?.verified ?? true,
    error: last?.error ?? null,
    stale: backupIsStale(last ? new Date(last.at) : null, new Date()),
  };
}

/** Hand-ins of the last 7 store days whose count differs from the cash expected (P-33). */
async function cashDifferences(): Promise<CashDifference[] | null> {
  const today = storeDay(new Date());
  try {
    return await listCashDifferences(addStoreDays(today, -6), today);
  } catch (error) {
    log.error("Cash differences failed", { error: errorMessage(error) });
    return null;
  }
}

async function lowStockSummary(): Promise<LowStockSummary | null> {
  try {
    return await listLowStock(undefined, { limit: 20 });
  } catch (error) {
    log.error("Low stock list failed", { error: errorMessage(error) });
    return null;
  }
}

/** Owners only: the generated ID photo key nobody has confirmed as backed up yet. */
async function keyBackup(role: Parameters<typeof can>[0]): Promise<KeyBackupBannerData | null> {
  if (!can(role, "keys")) return null;
  try {
    return await keyBackupReminder(idPhotoKeyring(), config().dataDir);
  } catch (error) {
    log.error("Could not read the ID photo key's backup confirmation", { error: errorMessage(error) });
    return null;
  }
}

export async function loader({ context }: Route.LoaderArgs): Promise<{
  stats: DashboardStats | null;
  today: TodayFigures | null;
  backup: BackupSummary;
  lowStock: LowStockSummary | null;
  keyBackup: KeyBackupBannerData | null;
  cash: CashDifference[] | null;
}> {
  const session = requireAdmin(context);
  const backup = backupSummary();
  const lowStock = lowStockSummary();
  const cash = cashDifferences();
  const reminder = keyBackup(session.role);
  try {
    return {
      stats: await getDashboardStats(),
      today: await getTodayFigures(),
      backup,
      lowStock: await lowStock,
      keyBackup: await reminder,
      cash: await cash,
    };
  } catch (error) {
    // K-8: a dashboard stats failure is logged only.
    log.error("Dashboard stats failed", { error: errorMessage(error) });
    return {
      stats: null,
      today: null,
      backup,
      lowStock: await lowStock,
      keyBackup: await reminder,
      cash: await cash,
    };
  }
}

const confirmKeyBackupSchema = z.object({
  intent: z.literal("confirm-key-backup"),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
});

/** An owner confirms that the generated ID photo key is backed up (stored, and audited). */
export async function action({ context }: Route.ActionArgs) {
  const session = requirePermission(context, "keys");
  const parsed = confirmKeyBackupSchema.safeParse(Object.fromEntries(adminForm(context)));
  if (!parsed.success)
    return data({ error: "That confirmation was not understood: reload the page." }, { status: 400 });
  if (parsed.data.keyId !== idPhotoKeyring().current.id) {
    return data(
      {
        error:
          "The shop's ID photo key has changed since this page was loaded: reload it and back up the new key.",
      },
      { status: 409 },
    );
  }
  await confirmKeyBackup(parsed.data.keyId, { audit: auditBy(session, context) });
  return data({ error: undefined });
}

const ORDER_STATUSES = ["pending", "confirmed", "delivered", "cancelled"] as const;

const placedAt = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: STORE_TIME_ZONE,
});

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const stats = loaderData.stats;
  return (
    <>
      <AdminPageHeader title="Admin Dashboard" description="Today at a glance.">
        <HeaderLink to="/admin/today" icon="truck">
          Today's Deliveries
        </HeaderLink>
        <HeaderLink to="/admin/products" icon="package">
          Manage Products
        </HeaderLink>
        <HeaderLink to="/admin/orders" icon="clipboard-list">
          View Orders
        </HeaderLink>
        <HeaderLink to="/admin/products/new" icon="plus" primary>
          Add Product
        </HeaderLink>
      </AdminPageHeader>

      {loaderData.keyBackup ? (
        <KeyBackupBanner reminder={loaderData.keyBackup} error={actionData?.error} />
      ) : null}

      <TodayAtGlance today={loaderData.today} />

      <h2 className="mt-6 mb-3 font-semibold text-muted-foreground text-xs uppercase tracking-wider">
        All time
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {(
          [
            { icon: "package", label: "Total Products", value: stats && String(stats.totalProducts) },
            {
              icon: "shopping-bag",
              label: "Total Orders",
              value: stats?.totalOrders.toLocaleString("en-US"),
            },
            {
              icon: "dollar-sign",
              label: "Total Revenue",
              value: stats && formatCents(stats.totalRevenueCents),
              hint: "Delivered orders only",
            },
            {
              icon: "clipboard-list",
              label: "Open orders",
              value: stats && formatCents(stats.openValueCents),
              hint:
                stats &&
                `${stats.openOrders.toLocaleString("en-US")} not delivered yet (pending, confirmed, out for delivery)`,
            },
          ] satisfies Stat[]
        ).map((stat) => (
          <StatCard key={stat.label} {...stat} />
        ))}
      </div>

      <BackupPanel backup={loaderData.backup} />
      <LowStockPanel lowStock={loaderData.lowStock} />
      <CashDifferencesPanel differences={loaderData.cash} />

      <div className="mt-6 grid gap-4 lg:grid-cols-[2fr_1fr]">
        <Card className="p-5">
          <h2 className="font-semibold">Last 30 days</h2>
          <p className="mb-3 text-muted-foreground text-sm">
            Orders per day and revenue (cancelled orders excluded)
          </p>
          {stats ? (
            <OrdersChart days={stats.last30Days} />
          ) : (
            <p className="text-muted-foreground">No figures available.</p>
          )}
        </Card>
        <OrdersByStatus stats={stats} />
      </div>

      <RecentOrders orders={stats?.recentOrders ?? []} />
    </>
  );
}

/** How many orders each status holds, of all orders. */
function OrdersByStatus({ stats }: { stats: DashboardStats | null }) {
  return (
    <Card className="p-5">
      <h2 className="mb-3 font-semibold">Orders by status</h2>
      <ul className="space-y-2">
        {ORDER_STATUSES.map((status) => {
          const value = stats?.statusCounts[status] ?? 0;
          const share = stats && stats.totalOrders > 0 ? (value / stats.totalOrders) * 100 : 0;
          return (
            <li key={status}>
              <div className="flex items-center justify-between text-sm">
                <StatusBadge status={status} />
                <span className="font-semibold tabular-nums">{value.toLocaleString("en-US")}</span>
              </div>
              <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden>
                <div className="h-full rounded-full bg-forest-400" style={{ width: `${share}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** The latest orders, newest first, each with its status and total. */
function RecentOrders({ orders }: { orders: DashboardStats["recentOrders"] }) {
  return (
    <Card className="mt-6 p-5">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="font-semibold">Recent Orders</h2>
        <Link to="/admin/orders" className="text-primary text-sm underline-offset-4 hover:underline">
          All incoming orders
        </Link>
      </div>
      {orders.length > 0 ? (
        <ul className="divide-y divide-border">
          {orders.map((order) => (
            <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="font-medium">
                  <span className="font-mono">#{order.id.slice(0, 8)}</span> · {order.customerName}
                </p>
                <p className="text-muted-foreground text-xs">{placedAt.format(new Date(order.createdAt))}</p>
              </div>
              <div className="flex items-center gap-3">
                <StatusBadge status={order.status} />
                <span className="font-semibold tabular-nums">{formatCents(order.totalAmountCents)}</span>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="py-6 text-center text-muted-foreground">No orders yet.</p>
      )}
    </Card>
  );
}

/** Today at a glance: today's orders, revenue (delivered) and expected (still open), deliveries by status. */
function TodayAtGlance({ today }: { today: TodayFigures | null }) {
  const deliveries = today?.deliveries.reduce((sum, row) => sum + row.orders, 0) ?? 0;
  const expected = today?.expected.reduce((sum, row) => sum + row.totalCents, 0) ?? 0;
  return (
    <section aria-labelledby="today-heading">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2
          id="today-heading"
          className="font-semibold text-muted-foreground text-xs uppercase tracking-wider"
        >
          Today
        </h2>
        <Link to="/admin/today" className="text-primary text-sm underline-offset-4 hover:underline">
          Open today's board
        </Link>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {(
          [
            {
              icon: "shopping-bag",
              label: "Orders today",
              value: today?.placed.toLocaleString("en-US"),
              hint: "Placed since midnight",
            },
            {
              icon: "dollar-sign",
              label: "Revenue today",
              value: today && formatCents(today.revenueCents),
              hint:
                today &&
                `Delivered today · ${formatCents(expected)} expected${
                  today.expected.length
                    ? ` (${today.expected.map((row) => `${row.status.replaceAll("_", " ")} ${formatCents(row.totalCents)}`).join(", ")})`
                    : ""
                }`,
            },
          ] satisfies Stat[]
        ).map((stat) => (
          <StatCard key={stat.label} {...stat} />
        ))}
        <Card className="p-5">
          <p className="text-muted-foreground text-sm">Today's deliveries</p>
          <p className="font-display text-2xl text-foreground tabular-nums">{today ? deliveries : "–"}</p>
          {today && today.deliveries.length > 0 ? (
            <ul
              aria-label="Today's deliveries by status"
              className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-sm"
            >
              {today.deliveries.map((row) => (
                <li key={row.status} className="flex items-center gap-1.5">
                  <StatusBadge status={row.status} />
                  <span className="font-semibold tabular-nums">{row.orders}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-foreground text-xs">No deliveries booked for today</p>
          )}
        </Card>
      </div>
    </section>
  );
}

/** A figure with its icon and label; "–" while the figures are unavailable (null). */
type Stat = { icon: IconName; label: string; value: string | null | undefined; hint?: string | null };

function StatCard({ icon, label, value, hint }: Stat) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-secondary text-primary [&_svg]:size-5">
        <Icon name={icon} />
      </span>
      <div>
        <p className="text-muted-foreground text-sm">{label}</p>
        <p className="font-display text-2xl text-foreground tabular-nums">{value ?? "–"}</p>
        {hint ? <p className="text-muted-foreground text-xs">{hint}</p> : null}
      </div>
    </Card>
  );
}
