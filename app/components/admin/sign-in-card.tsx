import type * as React from "react";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";

/** The centred card of the pages before the back office: sign-in, its second step, the invitation. */
export function SignInCard(props: { title: string; subtitle: React.ReactNode; children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-forest-50 to-background px-4 py-12">
      <Card className="w-full max-w-sm p-6 sm:p-8">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
            <Icon name="lock-keyhole" className="size-6" />
          </span>
          <div>
            <h1 className="font-display text-2xl text-primary">{props.title}</h1>
            <p className="mt-1 text-muted-foreground text-sm">{props.subtitle}</p>
          </div>
        </div>
        {props.children}
      </Card>
    </main>
  );
}
