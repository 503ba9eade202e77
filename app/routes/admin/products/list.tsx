import { useEffect, useMemo, useState } from "react";
import { data, Link, type ShouldRevalidateFunctionArgs, useFetcher, useSearchParams } from "react-router";
import { ConfirmDialog } from "#app/components/admin/confirm-dialog.tsx";
import { useCsrfToken } from "#app/components/admin/csrf.tsx";
import { AdminPageHeader, HeaderLink } from "#app/components/admin/page-header.tsx";
import {
  EditProductLink,
  type ProductListResult,
  ProductTable,
} from "#app/components/admin/product-table.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Input, Label, NativeSelect, SelectOptions } from "#app/components/ui/input.tsx";
import { Switch } from "#app/components/ui/switch.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import {
  CATEGORIES,
  canonicalCategory,
  isKnownCategory,
  isOnSale,
  unitPriceCents,
} from "#app/features/catalog/catalog.ts";
import { fieldErrorsOf } from "#app/features/catalog/product.schema.ts";
import {
  type AdminProduct,
  changeSizeStock,
  deleteOrArchiveProduct,
  fixCategoryCase,
  LOW_STOCK_THRESHOLD,
  listAdminProducts,
  setProductArchived,
} from "#app/features/catalog/product-admin.server.ts";
import { productListIntentSchema } from "#app/features/catalog/product-list.schema.ts";
import { categoryCounts, filterAdminProducts, isLowStock } from "#app/features/catalog/product-list.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { cn } from "#app/utils/cn.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { toast } from "#app/utils/toast-client.ts";
import type { Route } from "./+types/list";

export function meta() {
  return [{ title: "Products | Admin" }];
}

/** `?show=archived` lists the archived products (to restore one) instead of those in the shop. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const archived = new URL(request.url).searchParams.get("show") === "archived";
  try {
    return {
      products: await listAdminProducts(undefined, { archived }),
      archived,
      error: null,
      lowStock: LOW_STOCK_THRESHOLD,
    };
  } catch (error) {
    log.error("Failed to fetch products", { error: errorMessage(error) });
    return {
      products: [] as AdminProduct[],
      archived,
      error: "Failed to fetch products",
      lowStock: LOW_STOCK_THRESHOLD,
    };
  }
}

type ActionResult = ProductListResult;

export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const parsed = productListIntentSchema.safeParse(Object.fromEntries(adminForm(context)));
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    const stock = adminForm(context).get("intent") === "stock";
    return data<ActionResult>(
      stock
        ? { ok: false, title: "Error", description: "Check the stock change", fieldErrors }
        : { ok: false, title: "Error", description: "Unknown action" },
      { status: 400 },
    );
  }
  if (parsed.data.intent === "stock") {
    const { sizeId, reason, delta, note } = parsed.data;
    const result = await changeSizeStock(
      { sizeId, reason, delta, note },
      { actorId: admin.userId, audit: auditBy(admin, context) },
    );
    if (result.ok) {
      return data<ActionResult>({
        ok: true,
        title: "Stock updated",
        description: `${result.productName} (${result.sizeLabel}): ${result.onHand} on hand`,
      });
    }
    if (result.reason === "below-zero") {
      return data<ActionResult>(
        {
          ok: false,
          title: "Error",
          description: "Not enough stock",
          fieldErrors: {
            delta: `Only ${result.onHand} in stock: a correction can take at most ${result.onHand}`,
          },
        },
        { status: 409 },
      );
    }
    return data<ActionResult>(
      { ok: false, title: "Error", description: "That size no longer exists" },
      { status: 404 },
    );
  }
  const { intent, id } = parsed.data;
  if (intent === "archive" || intent === "restore") {
    const result = await setProductArchived(id, intent === "archive", { audit: auditBy(admin, context) });
    if (!result.ok) {
      return data<ActionResult>(
        { ok: false, title: "Error", description: "That product is not there any more: reload the list" },
        { status: 404 },
      );
    }
    return data<ActionResult>({
      ok: true,
      title: intent === "archive" ? "Product archived" : "Product restored",
      description:
        intent === "archive"
          ? `${result.name} is hidden from the shop. Find it under Archived to restore it.`
          : `${result.name} is back in the shop.`,
    });
  }
  if (intent === "delete") {
    try {
      const result = await deleteOrArchiveProduct(id, { audit: auditBy(admin, context) });
      if (result.outcome === "not-found") {
        return data<ActionResult>(
          { ok: false, title: "Error", description: "Failed to delete product: it no longer exists" },
          { status: 404 },
        );
      }
      return data<ActionResult>({ ok: true, title: "Success", description: "Product deleted successfully" });
    } catch (error) {
      log.error("Failed to delete product", { error: errorMessage(error) });
      return data<ActionResult>(
        { ok: false, title: "Error", description: `Failed to delete product: ${errorMessage(error)}` },
        { status: 500 },
      );
    }
  }
  try {
    const result = await fixCategoryCase(id);
    if (!result.ok) {
      return data<ActionResult>(
        { ok: false, title: "Error", description: `Failed to update category: ${result.reason}` },
        { status: 400 },
      );
    }
    return data<ActionResult>({
      ok: true,
      title: "Category Updated",
      description: `Updated "${result.from}" to "${result.to}"`,
    });
  } catch (error) {
    return data<ActionResult>(
      { ok: false, title: "Error", description: `Failed to update category: ${errorMessage(error)}` },
      { status: 500 },
    );
  }
}

/** The list's URL with one of its settings (view, stock, show) changed, the others kept. */
/** The list's two views; cards is the default (no `view` parameter). */
const LIST_VIEWS = [
  { view: "cards", label: "Cards", icon: "layout-grid" },
  { view: "table", label: "Table", icon: "clipboard-list" },
] as const;

function withParam(params: URLSearchParams, key: string, value: string | null) {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(key);
  else next.set(key, value);
  const text = next.toString();
  return text ? `?${text}` : "";
}

/** Switching the view or the low-stock filter needs no new data; switching to Archived does. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  return currentUrl.searchParams.get("show") !== nextUrl.searchParams.get("show");
}

export default function ProductList({ loaderData }: Route.ComponentProps) {
  const { products, error, lowStock, archived } = loaderData;
  const [params, setParams] = useSearchParams();
  const view = params.get("view") === "table" ? "table" : "cards";
  const lowStockOnly = params.get("stock") === "low";
  const [search, setSearch] = useState("");
  const [category, setCategory] = useState("all");
  const visible = useMemo(
    () => filterAdminProducts(products, search, category, { lowStockOnly }),
    [products, search, category, lowStockOnly],
  );
  const counts = useMemo(() => categoryCounts(products), [products]);
  const lowCount = useMemo(
    () => products.filter((product) => product.sizes.some(isLowStock)).length,
    [products],
  );

  function setParam(key: string, value: string | null) {
    setParams((current) => new URLSearchParams(withParam(current, key, value)), {
      replace: true,
      preventScrollReset: true,
    });
  }

  useEffect(() => {
    if (error) toast.error("Error", { description: error });
  }, [error]);

  return (
    <>
      <AdminPageHeader
        title={archived ? "Archived products" : "Products"}
        description={
          archived
            ? `${products.length} archived product${products.length === 1 ? "" : "s"}: hidden from the shop, kept for past orders`
            : `${products.length} product${products.length === 1 ? "" : "s"} in the shop`
        }
      >
        <HeaderLink to="/admin/dashboard" icon="arrow-left">
          Back to Dashboard
        </HeaderLink>
        <HeaderLink to="/admin/products/import" icon="upload">
          Import CSV
        </HeaderLink>
        <a href="/admin/products/export" download className={buttonVariants({ variant: "outline" })}>
          <Icon name="download" /> Export CSV
        </a>
        <HeaderLink to="/admin/products/new" icon="plus" primary>
          Add Product
        </HeaderLink>
      </AdminPageHeader>

      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_16rem]">
        <div className="relative">
          <Label htmlFor="product-search" className="sr-only">
            Search products
          </Label>
          <Icon
            name="search"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="product-search"
            type="search"
            placeholder="Search products..."
            className="pl-9"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="category-filter" className="sr-only">
            Category
          </Label>
          <NativeSelect
            id="category-filter"
            value={category}
            onChange={(event) => setCategory(event.target.value)}
          >
            <option value="all">All Categories</option>
            <SelectOptions values={CATEGORIES} />
            {counts
              .filter((entry) => !entry.known)
              .map((entry) => (
                <option key={entry.category} value={entry.category}>
                  {entry.category}
                </option>
              ))}
          </NativeSelect>
        </div>
      </div>

      <div className="mb-4 flex flex-wrap items-center gap-x-6 gap-y-3">
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">View</legend>
          {LIST_VIEWS.map((option) => (
            <Button
              key={option.view}
              type="button"
              size="sm"
              variant={view === option.view ? "secondary" : "ghost"}
              aria-pressed={view === option.view}
              onClick={() => setParam("view", option.view === "cards" ? null : option.view)}
            >
              <Icon name={option.icon} /> {option.label}
            </Button>
          ))}
        </fieldset>
        <div className="flex min-h-11 items-center gap-3">
          <Switch
            id="low-stock-only"
            checked={lowStockOnly}
            onCheckedChange={(checked) => setParam("stock", checked ? "low" : null)}
          />
          <Label htmlFor="low-stock-only">Low stock only ({lowCount})</Label>
        </div>
        <Link
          to={{ search: withParam(params, "show", archived ? null : "archived") }}
          className="inline-flex min-h-11 items-center text-primary text-sm underline-offset-4 hover:underline"
        >
          {archived ? "Back to products in the shop" : "Archived products"}
        </Link>
      </div>

      <ul className="mb-6 flex flex-wrap gap-2" aria-label="Categories">
        {counts.map((entry) => (
          <li key={entry.category}>
            <button
              type="button"
              onClick={() => setCategory(category === entry.category ? "all" : entry.category)}
              aria-pressed={category === entry.category}
              className={cn(
                "inline-flex min-h-11 items-center gap-2 rounded-full border px-3 font-medium text-sm transition-colors",
                category === entry.category
                  ? "border-primary bg-secondary text-secondary-foreground"
                  : entry.known
                    ? "border-border bg-card hover:bg-muted"
                    : "border-warning/40 bg-warning-muted text-warning hover:opacity-90",
              )}
            >
              {entry.category}
              <span className="rounded-full bg-background/70 px-1.5 text-xs tabular-nums">{entry.count}</span>
            </button>
          </li>
        ))}
      </ul>

      {visible.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center text-muted-foreground">
          {lowStockOnly
            ? "No product is low on stock."
            : archived
              ? "No archived products."
              : "No products found."}
        </p>
      ) : view === "table" ? (
        <ProductTable
          products={visible}
          onArchive={(product) => <ArchiveButton product={product} compact />}
        />
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {visible.map((product) => (
            <li key={product.id}>
              <AdminProductCard product={product} lowStock={lowStock} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** One product's actions posted to this list's action, with their confirmation dialog's state. */
function useProductAction<Intent extends string>(productId: string) {
  const fetcher = useFetcher<ActionResult>();
  const csrf = useCsrfToken();
  const [confirming, setConfirming] = useState(false);
  useResultToast(fetcher.data, () => setConfirming(false));
  const run = (intent: Intent) =>
    fetcher.submit({ csrf, intent, id: productId }, { method: "post", action: "/admin/products" });
  return { fetcher, run, confirming, setConfirming };
}

/**
 * 'Archive' (asks first) hides the product from the shop and this list; 'Restore' brings an archived
 * one back. Nothing is deleted: past orders and the stock ledger keep pointing at it.
 */
function ArchiveButton({ product, compact = false }: { product: AdminProduct; compact?: boolean }) {
  const { fetcher, run, confirming, setConfirming } = useProductAction<"archive" | "restore">(product.id);
  const archived = product.archivedAt !== null;
  const busy = fetcher.state !== "idle";

  if (archived) {
    return (
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => run("restore")}
        disabled={busy}
        aria-label={`Restore ${product.name}`}
      >
        <Icon name="refresh-cw" /> Restore
      </Button>
    );
  }
  return (
    <>
      <Button
        type="button"
        variant={compact ? "ghost" : "outline"}
        size="sm"
        onClick={() => setConfirming(true)}
        aria-label={`Archive ${product.name}`}
      >
        Archive
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Archive product?"
        description={
          <>
            <strong>{product.name}</strong> will be hidden from the shop and this list. Past orders keep it,
            and you can restore it from Archived products.
          </>
        }
        confirmLabel="Archive"
        busy={busy}
        onConfirm={() => run("archive")}
      />
    </>
  );
}

function AdminProductCard({ product, lowStock }: { product: AdminProduct; lowStock: number }) {
  const { fetcher, run, confirming, setConfirming } = useProductAction<"delete" | "fix-case">(product.id);
  const known = isKnownCategory(product.category);
  const fixable = !known && canonicalCategory(product.category) !== undefined;
  const busyIntent = fetcher.state !== "idle" ? fetcher.formData?.get("intent") : null;
  const archived = product.archivedAt !== null;

  return (
    <Card className="flex h-full flex-col overflow-hidden">
      <div className="relative aspect-[16/9] bg-muted sm:aspect-[4/3]">
        {product.imageUrl ? (
          <img src={product.imageUrl} alt="" className="size-full object-cover" loading="lazy" />
        ) : null}
        <div className="absolute top-2 left-2 flex gap-1.5">
          {archived ? <Badge variant="overlay">Archived</Badge> : null}
          {product.isFeatured ? <Badge variant="accent">Featured</Badge> : null}
          {product.isDeal ? <Badge variant="sale">Deal</Badge> : null}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div>
          <h2 className="font-semibold leading-snug">{product.name}</h2>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <Badge variant={known ? "outline" : "warning"}>{product.category}</Badge>
            {fixable ? (
              <Button
                type="button"
                variant="link"
                size="bare"
                className="min-h-11 text-sm"
                onClick={() => run("fix-case")}
                disabled={busyIntent === "fix-case"}
              >
                <Icon name="wand-sparkles" /> Fix Case
              </Button>
            ) : null}
          </div>
        </div>
        <div className="text-sm">
          <p className="text-muted-foreground">
            {product.sizes.length > 1 ? "Multiple sizes available" : "See sizes for pricing"}
          </p>
          <ul className="mt-2 space-y-1" aria-label={`Sizes and stock of ${product.name}`}>
            {product.sizes.map((size) => {
              const out = size.inventoryCount === 0;
              const low = !out && size.inventoryCount <= (size.lowStockThreshold ?? lowStock);
              return (
                <li key={size.id} className="flex items-center justify-between gap-2">
                  <span>
                    {size.size} ·{" "}
                    {isOnSale(size) ? (
                      <>
                        <span className="font-semibold text-destructive">
                          {formatCents(unitPriceCents(size))}
                        </span>{" "}
                        <s className="text-muted-foreground">{formatCents(size.priceCents)}</s>
                      </>
                    ) : (
                      <span className="font-semibold">{formatCents(size.priceCents)}</span>
                    )}
                  </span>
                  <span
                    className={cn(
                      "rounded-full px-2 text-xs tabular-nums",
                      out
                        ? "bg-destructive/10 font-semibold text-destructive"
                        : low
                          ? "bg-warning-muted font-semibold text-warning"
                          : "text-muted-foreground",
                    )}
                  >
                    {out
                      ? "Sold out"
                      : low
                        ? `Low: ${size.inventoryCount}`
                        : `${size.inventoryCount} in stock`}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
        <div className="mt-auto flex gap-2 pt-1">
          {archived ? null : <EditProductLink product={product} />}
          <ArchiveButton product={product} />
          {archived ? null : (
            <Button
              type="button"
              variant="outlineDestructive"
              size="icon"
              onClick={() => setConfirming(true)}
              aria-label={`Delete ${product.name}`}
            >
              <Icon name="trash" />
            </Button>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete product?"
        description={
          <>
            Are you sure you want to delete this product? <strong>{product.name}</strong> will be removed from
            the shop. If it appears in past orders it is kept for their history. To take it off the shop for a
            while, archive it instead.
          </>
        }
        confirmLabel="Delete"
        busy={busyIntent === "delete"}
        onConfirm={() => run("delete")}
      />
    </Card>
  );
}
