import type * as React from "react";
import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Icon, type IconName } from "#app/components/ui/icon.tsx";

/** Title row of an admin screen with its buttons; wraps under the title on a phone. */
export function AdminPageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        {description ? <p className="mt-1 text-muted-foreground text-sm">{description}</p> : null}
      </div>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </div>
  );
}

/** A header button that opens another admin page; `primary`: the screen's main action. */
export function HeaderLink(props: {
  to: string;
  icon: IconName;
  primary?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Link to={props.to} className={buttonVariants({ variant: props.primary ? "primary" : "outline" })}>
      <Icon name={props.icon} /> {props.children}
    </Link>
  );
}
