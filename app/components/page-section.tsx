import type * as React from "react";
import { Icon, type IconName } from "#app/components/ui/icon.tsx";

/** A storefront section's heading, with an optional line under it. */
export function SectionHeading({ title, subtitle, id }: { title: string; subtitle?: string; id: string }) {
  return (
    <div className="space-y-1">
      <h2 id={id} className="font-display text-2xl font-semibold text-primary md:text-3xl">
        {title}
      </h2>
      {subtitle ? <p className="text-muted-foreground">{subtitle}</p> : null}
    </div>
  );
}

/**
 * A section of a storefront page (home, DC landing page): its heading, then its content. `band`: a
 * full-width background band (its classes) around the centred column (`className`).
 */
export function PageSection({
  id,
  title,
  subtitle,
  className = "mx-auto max-w-6xl space-y-6 px-4",
  band,
  children,
}: {
  id: string;
  title: string;
  subtitle?: string;
  className?: string;
  band?: string;
  children: React.ReactNode;
}) {
  const content = (
    <>
      <SectionHeading id={id} title={title} subtitle={subtitle} />
      {children}
    </>
  );
  return band ? (
    <section aria-labelledby={id} className={band}>
      <div className={className}>{content}</div>
    </section>
  ) : (
    <section aria-labelledby={id} className={className}>
      {content}
    </section>
  );
}

export type Feature = { icon: IconName; title: string; text: string };

/** Reasons to choose the shop: a card each, with an icon, a title and a line. */
export function FeatureList({ items, itemClassName }: { items: readonly Feature[]; itemClassName: string }) {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {items.map((item) => (
        <li key={item.title} className={itemClassName}>
          <Icon name={item.icon} className="size-7 text-primary" />
          <h3 className="mt-3 font-display text-lg font-semibold">{item.title}</h3>
          <p className="mt-1 text-muted-foreground">{item.text}</p>
        </li>
      ))}
    </ul>
  );
}
