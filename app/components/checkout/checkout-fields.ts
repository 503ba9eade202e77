/**
 * The ids, names and error wiring of the checkout's fields, shared by its steps so each step only
 * places its controls.
 */
import type { CheckoutField, FieldErrors } from "#app/features/checkout/checkout.schema.ts";

import type { DraftTextField } from "#app/features/checkout/checkout-draft.ts";

export type TextField = DraftTextField;

export type TextValues = Record<TextField, string>;

export type CheckoutFields = ReturnType<typeof checkoutFields>;

export function checkoutFields({
  baseId,
  errors,
  values,
  update,
}: {
  baseId: string;
  errors: FieldErrors;
  values: TextValues;
  update: (field: TextField, value: string) => void;
}) {
  const idOf = (field: CheckoutField) => `${baseId}-${field}`;
  const errorIdOf = (field: CheckoutField) => `${baseId}-${field}-error`;

  /** A control's id, name and error state. */
  const fieldProps = (field: CheckoutField) => ({
    id: idOf(field),
    name: field,
    "data-field": field,
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? errorIdOf(field) : undefined,
  });

  return {
    baseId,
    errors,
    idOf,
    errorIdOf,
    fieldProps,
    /** A field's label, error and their ids (`Field`'s props). */
    fieldOf: (field: CheckoutField, label: string) => ({
      id: idOf(field),
      label,
      error: errors[field],
      errorId: errorIdOf(field),
      stacked: true,
    }),
    /** A text field's control: its id, name and error state, its value and its change handler. */
    bind: (field: TextField) => ({
      ...fieldProps(field),
      value: values[field],
      onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        update(field, event.target.value),
    }),
  };
}
