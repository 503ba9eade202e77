/** What the new-product and edit-product pages answer once a save is done or has thrown. */
import { data } from "react-router";
import type { ProductFormValues } from "#app/features/catalog/product.schema.ts";
import { SAVE_FAILED } from "#app/features/catalog/product.schema.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";

/** A save that threw: logged, and the form again with everything typed and the failure. */
export function productSaveFailed(error: unknown, values: ProductFormValues) {
  log.error("Failed to save product", { error: errorMessage(error) });
  return data({ fieldErrors: { form: SAVE_FAILED }, values }, { status: 500 });
}

/** A save done: back to the product list, which tells it in a toast. */
export function productSaved(description: string) {
  return redirectWithToast("/admin/products", { type: "success", title: "Success", description });
}
