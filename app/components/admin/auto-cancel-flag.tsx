import { Icon } from "#app/components/ui/icon.tsx";

/** A pending order the shop is about to cancel by itself, flagged on the board and the incoming list. */
export function AutoCancelFlag({ text }: { text: string }) {
  return (
    <p className="flex items-center gap-2 border-honey-400 border-b bg-honey-100 px-4 py-2 font-semibold text-honey-700 text-sm">
      <Icon name="clock" className="size-4 shrink-0" /> {text}
    </p>
  );
}
