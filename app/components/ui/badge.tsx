import type * as React from "react";

/** Colours by variant; the shape is the `badge` component class in app.css (it repeats in every card). */
const BADGE_VARIANTS = {
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
} as const;

export type BadgeVariant = keyof typeof BADGE_VARIANTS;

export type BadgeProps = React.ComponentProps<"span"> & { variant?: BadgeVariant };

export function Badge({ className, variant = "neutral", ...props }: BadgeProps) {
  const classes = `badge ${BADGE_VARIANTS[variant]}`;
  return <span className={className ? `${classes} ${className}` : classes} {...props} />;
}

/** K-2: Hybrid green, Indica blue, Sativa yellow, anything else grey. */
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
