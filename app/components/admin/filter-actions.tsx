import { Link, useLocation } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";

/**
 * The buttons under an admin filter form (orders, audit log): submit, "Clear" (back to the bare
 * address) while filters are set, and the CSV export of what the filters select.
 */
export function FilterActions({
  submitLabel,
  filtered,
  exportHref,
  className,
}: {
  submitLabel: string;
  filtered: boolean;
  exportHref: string;
  className: string;
}) {
  const location = useLocation();
  return (
    <div className={`flex flex-wrap items-end gap-2 ${className}`}>
      <Button type="submit">
        <Icon name="search" /> {submitLabel}
      </Button>
      {filtered ? (
        <Link to={location.pathname} className={buttonVariants({ variant: "ghost" })}>
          Clear
        </Link>
      ) : null}
      <a href={exportHref} className={buttonVariants({ variant: "outline" })} download>
        <Icon name="download" /> Export CSV
      </a>
    </div>
  );
}
