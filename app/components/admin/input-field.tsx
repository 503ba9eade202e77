import type { ComponentProps, ReactNode } from "react";
import { Field, Input } from "#app/components/ui/input.tsx";

/**
 * A labelled input whose error, when there is one, is shown below it and named by its
 * `aria-describedby` (`<id>-error`). Admin only: the storefront's shared chunk stays as it is.
 */
export function InputField({
  id,
  label,
  error,
  className,
  ...input
}: Omit<ComponentProps<"input">, "id"> & { id: string; label: ReactNode; error?: ReactNode }) {
  const errorId = `${id}-error`;
  return (
    <Field id={id} label={label} error={error} errorId={errorId} className={className}>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
    </Field>
  );
}
