import { Button } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Field, Input, NativeSelect, SelectOptions, Textarea } from "#app/components/ui/input.tsx";
import { type DeliveryState, US_STATES } from "#app/features/purchase-limits/purchase-limits.ts";
import type { CheckoutFields } from "./checkout-fields.ts";
import { CheckoutSection } from "./checkout-section.tsx";

/** Step 2: who receives the order and where. */
export function DeliveryAddressStep({
  fields,
  state,
  onStateChange,
  onZipBlur,
  onClearKept,
  textsOffered = false,
}: {
  /** The shop sends texts (P-37): the opt-in under the phone. */
  textsOffered?: boolean;
  /** Present while details are kept on this device: clears them from the form and the device. */
  onClearKept: (() => void) | null;
  fields: CheckoutFields;
  state: DeliveryState;
  onStateChange: (state: DeliveryState) => void;
  onZipBlur: (zip: string) => void;
}) {
  const { fieldOf, bind, fieldProps } = fields;
  return (
    <CheckoutSection icon={<Icon name="map-pin" />} title="Delivery address" step={2}>
      {onClearKept ? (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-md bg-secondary px-3 py-2 text-sm">
          <p>Your details are kept on this device until you place your order.</p>
          <Button type="button" variant="outline" size="sm" onClick={onClearKept}>
            Clear my details
          </Button>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field {...fieldOf("name", "Full name")}>
          <Input {...bind("name")} autoComplete="name" required />
        </Field>
        <Field {...fieldOf("email", "Email")}>
          <Input {...bind("email")} type="email" autoComplete="email" inputMode="email" required />
        </Field>
        <Field {...fieldOf("phone", "Phone")}>
          <Input {...bind("phone")} type="tel" autoComplete="tel" required />
          {textsOffered ? (
            <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
              <input type="checkbox" name="smsOptIn" value="on" className="size-5 shrink-0 accent-primary" />
              <span>Text me updates about this order</span>
            </label>
          ) : null}
        </Field>
        <Field {...fieldOf("address", "Street address")} className="sm:col-span-2">
          <Input {...bind("address")} autoComplete="street-address" required />
        </Field>
        <Field {...fieldOf("city", "City")}>
          <Input {...bind("city")} autoComplete="address-level2" required />
        </Field>
        <div className="grid grid-cols-2 gap-4">
          <Field {...fieldOf("state", "State")}>
            <NativeSelect
              {...fieldProps("state")}
              autoComplete="address-level1"
              value={state}
              onChange={(event) => onStateChange(event.target.value as DeliveryState)}
            >
              <SelectOptions values={US_STATES} />
            </NativeSelect>
          </Field>
          <Field {...fieldOf("zipCode", "ZIP code")}>
            <Input
              {...bind("zipCode")}
              autoComplete="postal-code"
              inputMode="numeric"
              required
              onBlur={(event) => onZipBlur(event.target.value)}
            />
          </Field>
        </div>
        <Field {...fieldOf("notes", "Additional instructions (optional)")} className="sm:col-span-2">
          <Textarea {...bind("notes")} rows={3} placeholder="Apartment, gate code, where to meet you…" />
        </Field>
      </div>
    </CheckoutSection>
  );
}
