import { useId } from "react";
import { Card } from "#app/components/ui/card.tsx";

/** One numbered step of the checkout, in its own card. */
export function CheckoutSection({
  icon,
  title,
  step,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  step: number;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="flex items-center gap-3 font-display text-xl font-semibold">
          <span
            className="flex size-8 items-center justify-center rounded-full bg-secondary text-sm font-semibold text-primary [&_svg]:size-4"
            aria-hidden="true"
          >
            {icon}
          </span>
          <span>
            <span className="sr-only">Step {step}: </span>
            {title}
          </span>
        </h2>
        <div className="mt-4">{children}</div>
      </section>
    </Card>
  );
}
