import type * as React from "react";
import { cn } from "#app/utils/cn.ts";

/**
 * What every form field shares (the `field` component class in app.css); height, padding and text
 * size come from the field itself.
 */
const fieldBase = "field";

export const fieldClasses = `${fieldBase} min-h-11 px-3 py-2 text-base`;

export function Input({ className, ...props }: React.ComponentProps<"input">) {
  return <input className={cn(fieldClasses, className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea className={cn(fieldBase, "min-h-24 px-3 py-2 text-base", className)} {...props} />;
}

/** `compact`: the smaller select of a product card. */
export function NativeSelect({
  className,
  compact = false,
  ...props
}: React.ComponentProps<"select"> & { compact?: boolean }) {
  return (
    <select
      className={cn(
        fieldBase,
        compact ? "min-h-11 py-1.5 pr-7 pl-2.5 text-sm" : "min-h-11 py-2 pr-8 pl-3 text-base",
        className,
      )}
      {...props}
    />
  );
}

/** `small` and `muted`: the size rows and secondary fields of the admin's product form. */
export function Label({
  className,
  small = false,
  muted = false,
  ...props
}: React.ComponentProps<"label"> & { small?: boolean; muted?: boolean }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor or wrap the control
    <label
      className={cn(
        "font-medium",
        small ? "text-xs" : "text-sm",
        muted ? "text-muted-foreground" : "text-foreground",
        className,
      )}
      {...props}
    />
  );
}

export function FieldError({ id, children }: { id?: string; children?: React.ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="text-sm text-destructive" role="alert">
      {children}
    </p>
  );
}

/**
 * A labelled field: the label above its control (`children`, with `id`), the error below when
 * there is one (`errorId` names it for the control's `aria-describedby`). `stacked`: a flex column
 * whose control fills the width (the checkout form's fields); `small`: the compact label of an inline form.
 */
export function Field({
  id,
  label,
  error,
  errorId,
  stacked = false,
  small = false,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  error?: React.ReactNode;
  errorId?: string;
  stacked?: boolean;
  small?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn(stacked ? "flex flex-col gap-1.5" : small ? "space-y-1" : "space-y-1.5", className)}>
      <Label htmlFor={id} small={small}>
        {label}
      </Label>
      {children}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** A native select's options from a list: each value, shown as `label(value)` (the value itself by default). */
export function SelectOptions<T extends string>({
  values,
  label,
}: {
  values: readonly T[];
  label?: (value: T) => React.ReactNode;
}) {
  return values.map((value) => (
    <option key={value} value={value}>
      {label ? label(value) : value}
    </option>
  ));
}
