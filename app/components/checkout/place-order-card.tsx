import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { FieldError } from "#app/components/ui/input.tsx";
import type { PurchaseLimitProblem } from "#app/features/purchase-limits/purchase-limits.ts";
import { formatCents } from "#app/utils/money.ts";
import type { CheckoutFields } from "./checkout-fields.ts";

/** The age box, 'Place Order' and what still stands in its way. */
export function PlaceOrderCard({
  fields,
  ageConfirmed,
  onAgeChange,
  disabled,
  processing,
  missing,
  limitProblem,
  totalCents,
}: {
  fields: CheckoutFields;
  ageConfirmed: boolean;
  onAgeChange: (confirmed: boolean) => void;
  disabled: boolean;
  processing: boolean;
  missing: string[];
  limitProblem: PurchaseLimitProblem | null;
  totalCents: number;
}) {
  const { fieldProps, errors, errorIdOf, baseId } = fields;
  const missingId = `${baseId}-missing`;
  return (
    <Card className="p-5 sm:p-6">
      <label className="flex cursor-pointer items-start gap-3">
        <input
          {...fieldProps("ageConfirmed")}
          type="checkbox"
          value="on"
          checked={ageConfirmed}
          onChange={(event) => onAgeChange(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-primary"
        />
        <span className="text-sm">
          <span className="font-semibold">I confirm that I am 21 years of age or older.</span>{" "}
          <span className="text-muted-foreground">A valid ID is required at delivery.</span>
        </span>
      </label>
      <FieldError id={errorIdOf("ageConfirmed")}>{errors.ageConfirmed}</FieldError>

      <Button
        type="submit"
        size="lg"
        className="mt-5 w-full"
        disabled={disabled}
        aria-describedby={missing.length > 0 && !processing ? missingId : undefined}
      >
        {processing ? (
          <>
            <Icon name="loader-circle" className="animate-spin" />
            Processing...
          </>
        ) : (
          <>
            <Icon name="shield-check" />
            Place Order · {formatCents(totalCents)}
          </>
        )}
      </Button>
      {limitProblem && !processing ? (
        <p className="mt-3 text-center text-sm text-destructive">{limitProblem.message}</p>
      ) : missing.length > 0 && !processing ? (
        <p id={missingId} className="mt-3 text-center text-sm text-muted-foreground">
          To place your order, add {listText(missing)}.
        </p>
      ) : (
        <p className="mt-3 text-center text-sm text-muted-foreground">
          You pay {formatCents(totalCents)} in cash when your order arrives.
        </p>
      )}
    </Card>
  );
}

function listText(parts: string[]) {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}
