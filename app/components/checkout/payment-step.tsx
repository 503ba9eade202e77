import { Icon } from "#app/components/ui/icon.tsx";
import { Field, Input } from "#app/components/ui/input.tsx";
import { formatCents } from "#app/utils/money.ts";
import type { CheckoutFields } from "./checkout-fields.ts";
import { CheckoutSection } from "./checkout-section.tsx";

/** Step 3: cash only, and what the shopper will pay with so the driver brings change. */
export function PaymentStep({
  fields,
  changeCents,
  onPayWithBlur,
}: {
  fields: CheckoutFields;
  changeCents: number | null;
  onPayWithBlur: (text: string) => void;
}) {
  const { fieldOf, bind, errors, errorIdOf, baseId } = fields;
  const changeId = `${baseId}-payWith-change`;
  return (
    <CheckoutSection icon={<Icon name="banknote" />} title="Payment method" step={3}>
      <div className="flex items-center gap-3 rounded-md border border-primary bg-secondary px-4 py-3">
        <Icon name="banknote" className="size-5 text-primary" />
        <div>
          <p className="font-semibold">Cash Only</p>
          <p className="text-sm text-muted-foreground">
            Payment on delivery. Please have the exact amount ready.
          </p>
        </div>
      </div>
      <Field {...fieldOf("payWith", "I'll pay with (optional)")} className="mt-4 sm:w-1/2">
        <Input
          {...bind("payWith")}
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. $100"
          aria-describedby={
            errors.payWith ? errorIdOf("payWith") : changeCents !== null ? changeId : undefined
          }
          onBlur={(event) => onPayWithBlur(event.target.value)}
        />
        {changeCents !== null && !errors.payWith ? (
          <p id={changeId} className="text-sm text-muted-foreground">
            Your driver brings {formatCents(changeCents)} change.
          </p>
        ) : null}
      </Field>
    </CheckoutSection>
  );
}
