import { data, Link } from "react-router";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { ProductForm } from "#app/components/admin/product-form.tsx";
import { StockHistory } from "#app/components/admin/stock-history.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { productPath } from "#app/features/catalog/catalog.ts";
import { PRODUCT_CHANGED_MESSAGE, SAVE_FAILED } from "#app/features/catalog/product.schema.ts";
import {
  getAdminProduct,
  parseProductForm,
  toFormValues,
  updateProduct,
} from "#app/features/catalog/product-admin.server.ts";
import { recentMovements } from "#app/features/catalog/stock.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { productSaved, productSaveFailed } from "#app/routes/shared/product-save-response.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/edit";

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.product ? "Edit Product | Admin" : "Product Not Found | Admin" }];
}

export async function loader({ params, context }: Route.LoaderArgs) {
  requireAdmin(context);
  try {
    const product = await getAdminProduct(params.id);
    if (!product) return data({ product: null }, { status: 404 });
    const movements = await recentMovements(product.sizes.map((size) => size.id));
    return {
      product: {
        id: product.id,
        shopPath: productPath(product),
        values: toFormValues(product),
        history: product.sizes.map((size) => ({
          id: size.id,
          sku: size.sku,
          label: size.size,
          onHand: size.inventoryCount,
          movements: movements.get(size.id) ?? [],
        })),
      },
    };
  } catch (error) {
    // K-8: an edit page load failure is logged only and shows 'Product Not Found'.
    log.error("Edit page load failed", { error: errorMessage(error) });
    return data({ product: null }, { status: 404 });
  }
}

export async function action({ params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const parsed = parseProductForm(adminForm(context));
  // Refused or failed: the same page again with everything typed (no redirect that loses the form).
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, values: parsed.values }, { status: 400 });
  try {
    const result = await updateProduct(params.id, parsed.data, {
      actorId: admin.userId,
      audit: auditBy(admin, context),
    });
    if (!result.ok && result.reason === "conflict") {
      // Record 026: the form keeps what was typed; the admin reloads to see the other change.
      return data({ fieldErrors: { form: PRODUCT_CHANGED_MESSAGE }, values: parsed.values }, { status: 409 });
    }
    if (!result.ok && (result.reason === "stock" || result.reason === "sku")) {
      return data({ fieldErrors: result.fieldErrors, values: parsed.values }, { status: 409 });
    }
    if (!result.ok) {
      return redirectWithToast("/admin/products", {
        type: "error",
        title: "Error",
        description: SAVE_FAILED,
      });
    }
  } catch (error) {
    return productSaveFailed(error, parsed.values);
  }
  return productSaved("Product updated successfully");
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const back = (
    <Link to="/admin/products" className={buttonVariants({ variant: "ghost", className: "-ml-3 mb-2" })}>
      <Icon name="arrow-left" /> Back to Products
    </Link>
  );
  if (!loaderData.product) {
    return (
      <div className="mx-auto max-w-xl py-16 text-center">
        <h1 className="font-display text-3xl text-primary">Product Not Found</h1>
        <p className="mt-2 text-muted-foreground">It may have been deleted.</p>
        <Link to="/admin/products" className={buttonVariants({ variant: "primary", className: "mt-6" })}>
          <Icon name="arrow-left" /> Back to Products
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl">
      {back}
      <AdminPageHeader title="Edit Product">
        <a
          href={loaderData.product.shopPath}
          target="_blank"
          rel="noreferrer"
          className={buttonVariants({ variant: "outline" })}
        >
          <Icon name="store" /> View in shop
        </a>
      </AdminPageHeader>
      <ProductForm
        key={loaderData.product.id}
        initial={actionData?.values ?? loaderData.product.values}
        mode="edit"
        serverErrors={actionData?.fieldErrors}
      />
      <StockHistory sizes={loaderData.product.history} />
    </div>
  );
}
