import * as DialogPrimitive from "@radix-ui/react-dialog";
import type * as React from "react";
import { Icon } from "#app/components/ui/icon.tsx";
import { cn } from "#app/utils/cn.ts";

type ContentProps = React.ComponentProps<typeof DialogPrimitive.Content>;

/** Radix Dialog's layer: in a portal, over a dimmed page, with its focus trap, Escape and aria-modal. */
function DialogLayer({ overlayClassName, ...props }: ContentProps & { overlayClassName: string }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClassName} />
      <DialogPrimitive.Content {...props} />
    </DialogPrimitive.Portal>
  );
}

export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

/** A side panel (the cart). */
export function SheetContent({
  className,
  children,
  side = "right",
  ...props
}: ContentProps & { side?: "right" | "left" }) {
  return (
    <DialogLayer
      overlayClassName="fixed inset-0 z-50 bg-forest-950/50"
      className={cn(
        "fixed inset-y-0 z-50 flex w-full max-w-md flex-col bg-background shadow-raised",
        side === "right" ? "right-0" : "left-0",
        className,
      )}
      {...props}
    >
      {children}
      <DialogPrimitive.Close className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground">
        <Icon name="x" className="size-5" />
        <span className="sr-only">Close</span>
      </DialogPrimitive.Close>
    </DialogLayer>
  );
}

export const Dialog = DialogPrimitive.Root;
export const DialogTitle = DialogPrimitive.Title;
export const DialogDescription = DialogPrimitive.Description;
export const DialogClose = DialogPrimitive.Close;

/** A dialog in the middle of the screen (the admin's confirmations). */
export function DialogContent({ className, ...props }: ContentProps) {
  return (
    <DialogLayer
      overlayClassName="fixed inset-0 z-50 bg-forest-950/60"
      className={cn(
        "fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-card p-6 shadow-raised",
        className,
      )}
      {...props}
    />
  );
}
