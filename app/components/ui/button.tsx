import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "#app/utils/cn.ts";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 whitespace-nowrap font-semibold transition-colors focus-visible:outline-3 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-55 [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        primary: "bg-primary text-primary-foreground hover:bg-primary-hover",
        accent: "bg-accent text-accent-foreground hover:bg-accent-hover",
        secondary: "bg-secondary text-secondary-foreground hover:bg-forest-100",
        outline: "border border-input bg-card text-foreground hover:bg-muted",
        outlineOnDark: "border border-forest-600 bg-transparent text-paper-50 hover:bg-forest-800",
        outlineDestructive: "border border-input bg-card text-destructive hover:bg-muted",
        ghost: "text-foreground hover:bg-muted",
        ghostDestructive: "text-destructive hover:bg-muted",
        destructive: "bg-destructive text-destructive-foreground hover:opacity-90",
        link: "text-primary underline-offset-4 hover:underline",
      },
      size: {
        sm: "min-h-11 rounded-md px-3 text-sm",
        md: "min-h-11 rounded-md px-4 py-2 text-sm",
        lg: "min-h-12 rounded-md px-6 text-base",
        icon: "size-11 rounded-md p-0 text-sm",
        iconRound: "size-11 rounded-full p-0 text-sm",
        /** Text only (links): the caller sets height and size. */
        bare: "rounded-md",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

export type ButtonProps = React.ComponentProps<"button"> & VariantProps<typeof buttonVariants>;

/** A link styled as a button takes `buttonVariants()` as its class instead. */
export function Button({ className, variant, size, ...props }: ButtonProps) {
  return <button className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
