import { useCallback, useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Field, Input, NativeSelect } from "#app/components/ui/input.tsx";
import { isOnSale, unitPriceCents } from "#app/features/catalog/catalog.ts";
import type { AdminProduct, AdminProductSize } from "#app/features/catalog/product-admin.server.ts";
import { isLowStock } from "#app/features/catalog/product-list.ts";
import { cn } from "#app/utils/cn.ts";
import { formatCents } from "#app/utils/money.ts";
import { toast } from "#app/utils/toast-client.ts";
import { useCsrfToken } from "./csrf.tsx";

export type ProductListResult = {
  ok: boolean;
  title: string;
  description: string;
  /** A stock change refused on one of its fields. */
  fieldErrors?: Record<string, string>;
};

/** The table's columns, left to right; the numbers align right. */
const COLUMNS: readonly { label: string; numeric?: boolean }[] = [
  { label: "Name" },
  { label: "SKU" },
  { label: "Size" },
  { label: "Stock", numeric: true },
  { label: "Low at", numeric: true },
  { label: "Price", numeric: true },
  { label: "Status" },
  { label: "Actions" },
];

/**
 * The stock room's view of the products: one row per size (name, SKU, size, stock, low-stock
 * threshold, price, status), stock changed in place by a movement with its note (record 026).
 */
export function ProductTable({
  products,
  onArchive,
}: {
  products: readonly AdminProduct[];
  onArchive: (product: AdminProduct) => React.ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-border bg-card">
      <table className="w-full min-w-[56rem] text-sm">
        <caption className="sr-only">Products and their sizes, with stock</caption>
        <thead className="bg-muted/60 text-left text-muted-foreground text-xs uppercase tracking-wider">
          <tr>
            {COLUMNS.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={cn("px-3 py-2 font-semibold", column.numeric && "text-right")}
              >
                {column.label === "Actions" ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        {products.map((product) => (
          <tbody key={product.id} className="border-border border-t">
            {product.sizes.map((size, index) => (
              <SizeRow
                key={size.id}
                product={product}
                size={size}
                first={index === 0}
                actions={index === 0 ? onArchive(product) : null}
              />
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

function SizeRow({
  product,
  size,
  first,
  actions,
}: {
  product: AdminProduct;
  size: AdminProductSize;
  first: boolean;
  actions: React.ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const close = useCallback(() => setEditing(false), []);
  const archived = product.archivedAt !== null;
  const label = `${product.name} (${size.size})`;
  return (
    <>
      <tr className={cn("align-middle", !first && "border-border/60 border-t border-dashed")}>
        <th scope="row" className="px-3 py-1.5 text-left font-medium">
          {first ? (
            <span className="flex flex-wrap items-center gap-1.5">
              {product.name}
              <span className="font-normal text-muted-foreground text-xs">{product.category}</span>
            </span>
          ) : (
            <span className="sr-only">{product.name}</span>
          )}
        </th>
        <td className="px-3 py-1.5 font-mono text-xs">{size.sku}</td>
        <td className="px-3 py-1.5">{size.size}</td>
        <td className="px-3 py-1.5 text-right">
          {archived ? (
            <span className="tabular-nums">{size.inventoryCount}</span>
          ) : (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="tabular-nums"
              aria-expanded={editing}
              aria-label={`Change stock of ${label}: ${size.inventoryCount} on hand`}
              onClick={() => setEditing(!editing)}
            >
              {size.inventoryCount}
              <Icon name="pencil" className="text-muted-foreground" />
            </Button>
          )}
        </td>
        <td className="px-3 py-1.5 text-right tabular-nums">{size.lowStockThreshold}</td>
        <td className="px-3 py-1.5 text-right tabular-nums">
          {isOnSale(size) ? (
            <>
              <span className="font-semibold text-destructive">{formatCents(unitPriceCents(size))}</span>{" "}
              <s className="text-muted-foreground">{formatCents(size.priceCents)}</s>
            </>
          ) : (
            formatCents(size.priceCents)
          )}
        </td>
        <td className="px-3 py-1.5">
          <span className="flex flex-wrap gap-1">
            {archived ? <Badge variant="neutral">Archived</Badge> : <StockBadge size={size} />}
            {first && product.isFeatured ? <Badge variant="accent">Featured</Badge> : null}
            {first && product.isDeal ? <Badge variant="sale">Deal</Badge> : null}
          </span>
        </td>
        <td className="px-3 py-1.5">
          {first ? (
            <span className="flex justify-end gap-1">
              {archived ? null : <EditProductLink product={product} compact />}
              {actions}
            </span>
          ) : null}
        </td>
      </tr>
      {editing ? (
        <tr>
          <td colSpan={8} className="bg-secondary/40 px-3 py-3">
            {/* On a phone the table scrolls sideways: the form stays within the visible part. */}
            <div className="sticky left-3 max-w-[calc(100vw-4.5rem)] sm:max-w-none">
              <StockChangeForm size={size} label={label} onDone={close} />
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}

function StockBadge({ size }: { size: AdminProductSize }) {
  if (size.inventoryCount === 0) return <Badge variant="cancelled">Sold out</Badge>;
  if (isLowStock(size)) return <Badge variant="warning">Low stock</Badge>;
  return <Badge variant="outline">In stock</Badge>;
}

/** 'Received +N' or 'Correction ±N' with its note: one movement in the ledger, then the list reloads. */
function StockChangeForm({
  size,
  label,
  onDone,
}: {
  size: AdminProductSize;
  label: string;
  onDone: () => void;
}) {
  const fetcher = useFetcher<ProductListResult>();
  const csrf = useCsrfToken();
  const errors = fetcher.data?.ok === false ? (fetcher.data.fieldErrors ?? {}) : {};
  const result = fetcher.data;
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      toast.success(result.title, { description: result.description });
      onDone();
    } else if (!result.fieldErrors) {
      toast.error(result.title, { description: result.description });
    }
  }, [result, onDone]);
  const id = (field: string) => `stock-${size.id}-${field}`;
  return (
    <fetcher.Form
      method="post"
      action="/admin/products"
      className="flex flex-wrap items-end gap-3"
      aria-label={`Change stock of ${label}`}
    >
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="intent" value="stock" />
      <input type="hidden" name="sizeId" value={size.id} />
      <Field id={id("reason")} label="Change" small>
        <NativeSelect id={id("reason")} name="reason" defaultValue="received" className="w-48">
          <option value="received">Received +N</option>
          <option value="correction">Correction ±N</option>
        </NativeSelect>
      </Field>
      <Field id={id("delta")} label="Units" error={errors.delta} errorId={id("delta-error")} small>
        <Input
          id={id("delta")}
          name="delta"
          type="number"
          inputMode="numeric"
          step="1"
          required
          className="w-28"
          aria-invalid={errors.delta ? true : undefined}
          aria-describedby={errors.delta ? id("delta-error") : undefined}
        />
      </Field>
      <Field
        id={id("note")}
        label="Note"
        error={errors.note}
        errorId={id("note-error")}
        small
        className="min-w-48 flex-1"
      >
        <Input
          id={id("note")}
          name="note"
          required
          maxLength={200}
          placeholder="e.g. delivery from grower, counted shelf"
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={errors.note ? id("note-error") : undefined}
        />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Saving..." : "Save stock"}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** The product form's link: the table's is an icon, the card's says 'Edit'. */
export function EditProductLink({ product, compact = false }: { product: AdminProduct; compact?: boolean }) {
  return (
    <Link
      to={`/admin/products/edit/${product.id}`}
      className={buttonVariants(
        compact ? { variant: "ghost", size: "icon" } : { variant: "outline", className: "flex-1" },
      )}
      aria-label={`Edit ${product.name}`}
    >
      <Icon name="pencil" />
      {compact ? null : " Edit"}
    </Link>
  );
}
