import type { MouseEvent } from "react";
import type { NavigateFunction } from "react-router";

/** A click the browser would follow in this tab: the main button, no modifier key, no other target. */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>) {
  return (
    event.button === 0 &&
    !event.defaultPrevented &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    (!event.currentTarget.target || event.currentTarget.target === "_self")
  );
}

/** Follows a plain click on a link to `to` inside the app (client navigation), as `<Link>` does. */
export function followInApp(
  event: MouseEvent<HTMLAnchorElement>,
  navigate: NavigateFunction,
  to: string,
  options?: { replace?: boolean; preventScrollReset?: boolean },
) {
  if (!isPlainClick(event)) return;
  event.preventDefault();
  navigate(to, options);
}
