import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "#app/utils/cn.ts";

/** `badge` is a component class in app.css (it repeats in every product card). */
export const badgeVariants = cva("badge", {
  variants: {
    variant: {
      neutral: "bg-muted text-paper-700",
      primary: "bg-primary text-primary-foreground",
      accent: "bg-accent text-accent-foreground",
      sale: "bg-destructive text-destructive-foreground",
      outline: "border border-border bg-card text-foreground",
      /** Over a product image: lets a little of the picture through. */
      overlay: "border border-border bg-card/90 text-foreground",
      warning: "bg-warning-muted text-warning",
      hybrid: "bg-strain-hybrid text-strain-hybrid-foreground",
      indica: "bg-strain-indica text-strain-indica-foreground",
      sativa: "bg-strain-sativa text-strain-sativa-foreground",
      strainOther: "bg-strain-other text-strain-other-foreground",
      pending: "bg-status-pending text-status-pending-foreground",
      confirmed: "bg-status-confirmed text-status-confirmed-foreground",
      delivered: "bg-status-delivered text-status-delivered-foreground",
      cancelled: "bg-status-cancelled text-status-cancelled-foreground",
    },
  },
  defaultVariants: { variant: "neutral" },
});

export type BadgeProps = React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>;

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}

/** Spec §2: Hybrid green, Indica blue, Sativa yellow, anything else grey. */
export function strainBadgeVariant(strain: string | null | undefined) {
  switch (strain) {
    case "Hybrid":
      return "hybrid" as const;
    case "Indica":
      return "indica" as const;
    case "Sativa":
      return "sativa" as const;
    default:
      return "strainOther" as const;
  }
}
