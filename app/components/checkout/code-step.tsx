import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FieldError, Input, Label } from "#app/components/ui/input.tsx";
import {
  CODE_FIELD,
  CODE_LENGTH,
  CODE_STEP_FIELD,
  RESEND_FIELD,
} from "#app/features/checkout/contact-verification.ts";
import type { CheckoutFields } from "./checkout-fields.ts";

/**
 * P-36: the order waits for the code sent to its phone (or e-mail). The code goes with the same
 * form, so everything typed and the photo stay as they are.
 */
export function CodeStep({
  fields,
  sent,
  disabled,
}: {
  fields: CheckoutFields;
  /** What the server said it sent; empty after a refused code. */
  sent: string;
  disabled: boolean;
}) {
  const { fieldProps, errors, errorIdOf } = fields;
  const id = fieldProps("verificationCode").id;
  return (
    <Card className="space-y-3 border-primary p-5 sm:p-6">
      <input type="hidden" name={CODE_STEP_FIELD} value="1" />
      <h2 className="font-display text-xl font-semibold">Enter your code</h2>
      {sent ? <p className="text-sm">{sent}</p> : null}
      <div className="space-y-1.5">
        <Label htmlFor={id}>{CODE_LENGTH}-digit code</Label>
        <Input
          {...fieldProps("verificationCode")}
          name={CODE_FIELD}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={CODE_LENGTH + 2}
          className="max-w-48 text-lg tracking-widest"
          autoFocus
        />
        <FieldError id={errorIdOf("verificationCode")}>{errors.verificationCode}</FieldError>
      </div>
      <Button type="submit" name={RESEND_FIELD} value="1" variant="outline" size="sm" disabled={disabled}>
        Send a new code
      </Button>
    </Card>
  );
}
