import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "#app/components/ui/sheet.tsx";

/** The admin's question dialog: a title, a line of context and whatever answers it (`children`). */
export function QuestionDialog({
  open = true,
  onOpenChange,
  title,
  description,
  children,
}: {
  open?: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle className="font-display text-primary text-xl">{title}</DialogTitle>
        <DialogDescription className="mt-2 text-muted-foreground text-sm">{description}</DialogDescription>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** The answer row of a question: a way back that closes the dialog, then the answer (`children`). */
export function DialogButtons({ backLabel, children }: { backLabel: string; children: React.ReactNode }) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <DialogClose asChild>
        <Button type="button" variant="outline">
          {backLabel}
        </Button>
      </DialogClose>
      {children}
    </div>
  );
}

/** A calm yes/no question (P-15: deleting a product asks first). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  busy,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  return (
    <QuestionDialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <DialogButtons backLabel="Cancel">
        <Button type="button" variant="destructive" onClick={onConfirm} disabled={busy}>
          {busy ? "Deleting..." : confirmLabel}
        </Button>
      </DialogButtons>
    </QuestionDialog>
  );
}
