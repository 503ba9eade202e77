import { Icon } from "#app/components/ui/icon.tsx";
import { FieldError } from "#app/components/ui/input.tsx";
import {
  DELIVERY_DATE_HINT,
  type DeliveryDay,
  type SlotAvailability,
  slotStatusText,
} from "#app/features/delivery/delivery-slots.ts";
import { cn } from "#app/utils/cn.ts";
import type { CheckoutFields } from "./checkout-fields.ts";
import { CheckoutSection } from "./checkout-section.tsx";

/** A day as the server sees it now: its slots with their places left or closures (P-22). */
export type CheckoutDeliveryDay = DeliveryDay & { availability: SlotAvailability[] };

export const bookable = (slot: SlotAvailability) => slot.status === "open" || slot.status === "few";

/** Step 1: the delivery date, then a time slot of that day. */
export function DeliveryTimeStep({
  fields,
  days,
  deliveryDate,
  timeSlot,
  onDateChange,
  onSlotChange,
}: {
  fields: CheckoutFields;
  days: CheckoutDeliveryDay[];
  deliveryDate: string;
  timeSlot: string;
  onDateChange: (day: CheckoutDeliveryDay) => void;
  onSlotChange: (label: string) => void;
}) {
  const { errors, errorIdOf } = fields;
  const day = days.find((candidate) => candidate.date === deliveryDate) ?? days[0];
  const slots = day?.availability ?? [];
  return (
    <CheckoutSection icon={<Icon name="calendar-days" />} title="Delivery date and time" step={1}>
      <fieldset>
        <legend className="text-sm font-medium">Delivery date</legend>
        <div className="mt-2 grid grid-cols-2 gap-3">
          {days.map((option) => (
            <label
              key={option.date}
              className={cn(
                "flex min-h-14 cursor-pointer flex-col justify-center rounded-md border px-4 py-2 transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
                deliveryDate === option.date
                  ? "border-primary bg-secondary"
                  : "border-input bg-card hover:bg-muted",
                option.slots.length === 0 && "opacity-60",
              )}
            >
              <input
                type="radio"
                name="deliveryDate"
                value={option.date}
                checked={deliveryDate === option.date}
                disabled={option.slots.length === 0}
                data-field={option.date === deliveryDate ? "deliveryDate" : undefined}
                onChange={() => onDateChange(option)}
                className="sr-only"
              />
              <span className="font-semibold">{option.relative}</span>
              <span className="text-sm text-muted-foreground">
                {option.label}
                {dayNote(option)}
              </span>
            </label>
          ))}
        </div>
        <p className="mt-2 text-sm text-muted-foreground">{DELIVERY_DATE_HINT}</p>
        <FieldError id={errorIdOf("deliveryDate")}>{errors.deliveryDate}</FieldError>
      </fieldset>

      <fieldset className="mt-5" aria-describedby={errors.timeSlot ? errorIdOf("timeSlot") : undefined}>
        <legend className="text-sm font-medium">Delivery time</legend>
        {slots.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">
            {day?.closedForToday
              ? "We're closed for today: same-day orders end at the cut-off. Please choose tomorrow."
              : "No delivery times are left on this day. Please choose another date."}
          </p>
        ) : (
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {slots.map((slot, index) => {
              const open = bookable(slot);
              const chosen = open && timeSlot === slot.label;
              return (
                <label
                  key={slot.label}
                  className={cn(
                    "flex min-h-14 items-center gap-3 rounded-md border px-4 py-2 transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
                    chosen ? "border-primary bg-secondary" : "border-input bg-card",
                    open ? "cursor-pointer hover:bg-muted" : "cursor-not-allowed bg-muted/60 opacity-70",
                  )}
                >
                  <input
                    type="radio"
                    name="timeSlot"
                    value={slot.label}
                    checked={chosen}
                    disabled={!open}
                    onChange={() => onSlotChange(slot.label)}
                    data-field={index === 0 ? "timeSlot" : undefined}
                    className="sr-only"
                  />
                  <span
                    aria-hidden="true"
                    className={cn(
                      "flex size-5 shrink-0 items-center justify-center rounded-full border",
                      chosen ? "border-primary bg-primary text-primary-foreground" : "border-input",
                    )}
                  >
                    {chosen ? <Icon name="check" className="size-3" /> : null}
                  </span>
                  <span className="flex min-w-0 flex-col">
                    <span className={cn("font-semibold", !open && "line-through decoration-1")}>
                      {slot.label}
                    </span>
                    <span
                      className={cn(
                        "text-sm",
                        slot.status === "few" ? "font-medium text-warning" : "text-muted-foreground",
                      )}
                    >
                      {slotStatusText(slot)}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        )}
        <FieldError id={errorIdOf("timeSlot")}>{errors.timeSlot}</FieldError>
      </fieldset>
    </CheckoutSection>
  );
}

/** ' · Closed for today' after the cut-off, ' · fully booked' when no slot has a place left. */
function dayNote(day: CheckoutDeliveryDay) {
  if (day.closedForToday) return " · Closed for today";
  if (day.availability.length === 0) return "";
  if (day.availability.every((slot) => slot.status === "closed")) return " · Closed";
  return day.availability.some(bookable) ? "" : " · fully booked";
}
