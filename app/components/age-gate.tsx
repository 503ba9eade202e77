import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/sheet.tsx";

import { AGE_GATE_STORAGE_KEY } from "./age-gate-key.ts";

/**
 * Decision 19: on the first visit the shopper confirms they are 21 or older; the answer is kept in
 * local storage (never a cookie, so every shopper gets the same server HTML). Declining shows a polite
 * refusal. Not shown on the legal pages, so anyone can read them.
 */
export function AgeGate({ storeName, skip }: { storeName: string; skip: boolean }) {
  const [state, setState] = useState<"unknown" | "ask" | "declined" | "verified">("unknown");

  useEffect(() => {
    let verified = false;
    try {
      verified = window.localStorage.getItem(AGE_GATE_STORAGE_KEY) === "yes";
    } catch {
      verified = false;
    }
    setState(verified ? "verified" : "ask");
  }, []);

  function confirm() {
    try {
      window.localStorage.setItem(AGE_GATE_STORAGE_KEY, "yes");
    } catch {
      // Private mode: the answer lasts for this page only.
    }
    setState("verified");
  }

  const open = !skip && (state === "ask" || state === "declined");

  return (
    <Dialog open={open}>
      <DialogContent
        onEscapeKeyDown={(event) => event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
        className="text-center"
      >
        <span className="mx-auto mb-3 inline-flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
          <ShieldCheck className="size-6" aria-hidden />
        </span>
        {state === "declined" ? (
          <>
            <DialogTitle className="font-display text-2xl font-semibold text-primary">
              Sorry, we can't serve you
            </DialogTitle>
            <DialogDescription className="mt-2 text-muted-foreground">
              You must be 21 or older to visit {storeName}. Thank you for your understanding, and please come
              back when you are of legal age.
            </DialogDescription>
            <div className="mt-6 flex flex-col gap-2">
              <Button variant="outline" onClick={() => setState("ask")}>
                I answered by mistake
              </Button>
              <Link
                to="/age-verification"
                className={buttonVariants({ variant: "link" })}
                onClick={() => setState("ask")}
              >
                Why we ask
              </Link>
            </div>
          </>
        ) : (
          <>
            <DialogTitle className="font-display text-2xl font-semibold text-primary">
              Are you 21 or older?
            </DialogTitle>
            <DialogDescription className="mt-2 text-muted-foreground">
              {storeName} delivers cannabis to adults 21 and over. Please confirm your age to enter. Your ID
              is checked in person at delivery.
            </DialogDescription>
            <div className="mt-6 grid gap-2 sm:grid-cols-2">
              <Button size="lg" onClick={confirm}>
                Yes, I am 21 or older
              </Button>
              <Button size="lg" variant="outline" onClick={() => setState("declined")}>
                No, I am not
              </Button>
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
