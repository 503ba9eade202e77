import { useRef, useState } from "react";
import { useSubmit } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { PostForm } from "./csrf.tsx";

/**
 * A destructive post behind a button that asks first (with JavaScript), the dialog's answer
 * named as the button; without JavaScript the form posts directly. `children` stand under the
 * button, inside the form.
 */
export function ConfirmedAction({
  intent,
  fields,
  label,
  who,
  title,
  description,
  children,
}: {
  intent: string;
  fields: Record<string, string>;
  label: string;
  /** Whose row it is, when several rows have the button: its accessible name then says it. */
  who?: string;
  title: string;
  description: string;
  children?: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  return (
    <>
      <PostForm
        ref={form}
        intent={intent}
        fields={fields}
        onSubmit={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        <Button type="submit" variant="outlineDestructive" aria-label={who ? `${label} ${who}` : undefined}>
          {label}
        </Button>
        {children}
      </PostForm>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={label}
        onConfirm={() => {
          setOpen(false);
          if (form.current) submit(form.current);
        }}
      />
    </>
  );
}
