/**
 * The pieces every form of the run shares: a plain document post to the run page (record 059: no
 * React Router client on the page), the hidden fields each post carries, the run's button styles.
 */
import type { ComponentProps } from "react";

export const RUN_PAGE = "/driver";

export const BUTTON =
  "inline-flex min-h-12 items-center justify-center gap-2 rounded-lg px-4 py-2 text-lg font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-50";
export const PRIMARY = `${BUTTON} bg-primary text-primary-foreground hover:bg-primary-hover`;
export const OUTLINE = `${BUTTON} border-2 border-foreground bg-card text-foreground hover:bg-muted`;
export const DANGER = `${BUTTON} border-2 border-destructive bg-card text-destructive hover:bg-muted`;

/** A post of the run page, answered by its action with the page. */
export function RunForm(props: Omit<ComponentProps<"form">, "method" | "action">) {
  return <form method="post" action={RUN_PAGE} {...props} />;
}

export function Hidden({ csrf, intent, orderId }: { csrf: string; intent: string; orderId?: string }) {
  return (
    <>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="intent" value={intent} />
      {orderId ? <input type="hidden" name="orderId" value={orderId} /> : null}
    </>
  );
}
