import { Label, NativeSelect, SelectOptions } from "#app/components/ui/input.tsx";
import { CANCEL_REASONS, STAFF_CANCEL_REASONS } from "#app/features/orders/order-status.ts";

/** The required reason staff pick when cancelling one order or several. */
export function CancelReasonSelect(props: { id: string; value: string; onChange: (reason: string) => void }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={props.id}>Reason</Label>
      <NativeSelect
        id={props.id}
        name="reason"
        required
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        className="w-full"
      >
        <option value="" disabled>
          Choose a reason
        </option>
        <SelectOptions values={STAFF_CANCEL_REASONS} label={(code) => CANCEL_REASONS[code].label} />
      </NativeSelect>
    </div>
  );
}
