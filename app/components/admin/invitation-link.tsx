import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Label } from "#app/components/ui/input.tsx";

/**
 * An invitation's link, shown once to the owner who made it when no mail server can deliver it.
 * Without JavaScript the field can still be selected and copied by hand.
 */
export function InvitationLink({ link }: { link: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-1.5 rounded-md border border-border bg-card p-3">
      <Label htmlFor="invitation-link">Invitation link</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="invitation-link"
          readOnly
          value={link}
          className="min-w-0 flex-1 font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={async () => {
            await navigator.clipboard.writeText(link);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </Button>
      </div>
    </div>
  );
}
