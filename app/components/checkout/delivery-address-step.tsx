import { Icon } from "#app/components/ui/icon.tsx";
import { Field, Input, NativeSelect, SelectOptions, Textarea } from "#app/components/ui/input.tsx";
import { type DeliveryState, US_STATES } from "#app/features/checkout/checkout.schema.ts";
import type { CheckoutFields } from "./checkout-fields.ts";
import { CheckoutSection } from "./checkout-section.tsx";

/** Step 2: who receives the order and where. */
export function DeliveryAddressStep({
  fields,
  state,
  onStateChange,
  onZipBlur,
}: {
  fields: CheckoutFields;
  state: DeliveryState;
  onStateChange: (state: DeliveryState) => void;
  onZipBlur: (zip: string) => void;
}) {
  const { fieldOf, bind, fieldProps } = fields;
  return (
    <CheckoutSection icon={<Icon name="map-pin" />} title="Delivery address" step={2}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field {...fieldOf("name", "Full name")}>
          <Input {...bind("name")} autoComplete="name" required />
        </Field>
        <Field {...fieldOf("email", "Email")}>
          <Input {...bind("email")} type="email" autoComplete="email" inputMode="email" required />
        </Field>
        <Field {...fieldOf("phone", "Phone")}>
          <Input {...bind("phone")} type="tel" autoComplete="tel" required />
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
