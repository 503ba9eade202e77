import { buttonVariants } from "#app/components/ui/button.tsx";
import { ConfirmedAction } from "./confirmed-action.tsx";

/**
 * What a customer may ask staff for (record 057), on the customer's page and a guest's row: their
 * data as a download, and its erasure, which asks first. `children` stand under 'Erase data'.
 */
export function CustomerDataRequests({
  exportHref,
  erase,
  who,
  description,
  children,
}: {
  exportHref: string;
  /** The erasure's post: its intent and the fields naming the customer. */
  erase: { intent: string; fields: Record<string, string> };
  /** The customer's name, or their e-mail without one. */
  who: string;
  /** What the erasure deletes and keeps. */
  description: string;
  children?: React.ReactNode;
}) {
  return (
    <>
      <a href={exportHref} className={buttonVariants({ variant: "outline" })} download>
        Export data
      </a>
      <ConfirmedAction
        intent={erase.intent}
        fields={erase.fields}
        label="Erase data"
        title={`Erase ${who}'s data?`}
        description={description}
      >
        {children}
      </ConfirmedAction>
    </>
  );
}
