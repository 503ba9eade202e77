import { useEffect, useId, useRef, useState } from "react";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { AGE_GATE_STORAGE_KEY } from "./age-gate-key.ts";
import { StoreLink } from "./store-link.tsx";

/**
 * P-19: on the first visit the shopper confirms they are 21 or older; the answer is kept in
 * local storage (never a cookie, so every shopper gets the same server HTML). Declining shows a polite
 * refusal. Not shown on the legal pages, so anyone can read them.
 *
 * A native modal <dialog> rather than Radix: it is the first thing a new visitor's phone loads, and
 * the platform already makes the page behind it inert. What it lacks is added here: it cannot be
 * dismissed without an answer, and Tab stays inside it.
 */
export function AgeGate({ storeName, skip }: { storeName: string; skip: boolean }) {
  // Mounted by the store layout only for a shopper who has not answered yet.
  const [state, setState] = useState<"ask" | "declined" | "verified">("ask");
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  const open = !skip && state !== "verified";

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  function confirm() {
    try {
      window.localStorage.setItem(AGE_GATE_STORAGE_KEY, "yes");
    } catch {
      // Private mode: the answer lasts for this page only.
    }
    setState("verified");
  }

  function keepFocusInside(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab") return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>("button, a[href]")];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      // Escape asks to close: the question must be answered first.
      onCancel={(event) => event.preventDefault()}
      // A browser may close it anyway (a second Escape): open it again until answered.
      onClose={(event) => {
        if (open) event.currentTarget.showModal();
      }}
      onKeyDown={keepFocusInside}
      className="fixed top-1/2 left-1/2 z-50 m-0 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-card p-6 text-center text-card-foreground shadow-raised backdrop:bg-forest-950/60"
    >
      {open ? (
        <>
          <span className="mx-auto mb-3 inline-flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
            <Icon name="shield-check" className="size-6" />
          </span>
          {state === "declined" ? (
            <>
              <h2 id={titleId} className="font-display text-2xl font-semibold text-primary">
                Sorry, we can't serve you
              </h2>
              <p id={descriptionId} className="mt-2 text-muted-foreground">
                You must be 21 or older to visit {storeName}. Thank you for your understanding, and please
                come back when you are of legal age.
              </p>
              <div className="mt-6 flex flex-col gap-2">
                <Button variant="outline" autoFocus onClick={() => setState("ask")}>
                  I answered by mistake
                </Button>
                <StoreLink
                  to="/age-verification"
                  className={buttonVariants({ variant: "link" })}
                  onClick={() => setState("ask")}
                >
                  Why we ask
                </StoreLink>
              </div>
            </>
          ) : (
            <>
              <h2 id={titleId} className="font-display text-2xl font-semibold text-primary">
                Are you 21 or older?
              </h2>
              <p id={descriptionId} className="mt-2 text-muted-foreground">
                {storeName} delivers cannabis to adults 21 and over. Please confirm your age to enter. Your ID
                is checked in person at delivery.
              </p>
              <div className="mt-6 grid gap-2 sm:grid-cols-2">
                <Button size="lg" autoFocus onClick={confirm}>
                  Yes, I am 21 or older
                </Button>
                <Button size="lg" variant="outline" onClick={() => setState("declined")}>
                  No, I am not
                </Button>
              </div>
            </>
          )}
        </>
      ) : null}
    </dialog>
  );
}
