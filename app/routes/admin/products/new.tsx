import { data, Link } from "react-router";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { ProductForm } from "#app/components/admin/product-form.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { emptyProductForm } from "#app/features/catalog/product.schema.ts";
import { createProduct, parseProductForm, SkuTaken } from "#app/features/catalog/product-admin.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { productSaved, productSaveFailed } from "#app/routes/shared/product-save-response.server.ts";
import type { Route } from "./+types/new";

export function meta() {
  return [{ title: "Add New Product | Admin" }];
}

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const parsed = parseProductForm(adminForm(context));
  // Refused or failed: the same page again with everything typed (no redirect that loses the form).
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors, values: parsed.values }, { status: 400 });
  try {
    await createProduct(parsed.data, { actorId: admin.userId, audit: auditBy(admin, context) });
  } catch (error) {
    if (error instanceof SkuTaken) {
      return data({ fieldErrors: error.fieldErrors, values: parsed.values }, { status: 409 });
    }
    return productSaveFailed(error, parsed.values);
  }
  return productSaved("Product created successfully");
}

export default function NewProduct({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl">
      <Link to="/admin/products" className={buttonVariants({ variant: "ghost", className: "-ml-3 mb-2" })}>
        <Icon name="arrow-left" /> Back to Products
      </Link>
      <AdminPageHeader title="Add New Product" />
      <ProductForm
        initial={actionData?.values ?? emptyProductForm()}
        mode="create"
        serverErrors={actionData?.fieldErrors}
      />
    </div>
  );
}
