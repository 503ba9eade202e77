/**
 * Proof at the door on the phone (P-32, record 051): the 'Delivered' screen (ID checked, date of
 * birth typed and its age shown, cash received and the change to give, the customer's signature
 * drawn on the screen) and the 'Could not deliver' screen (a reason, a note for Other).
 *
 * Both are plain forms posting to `/driver` (a document post, record 049). Given `onAction`, a form
 * hands its action to script instead (the offline queue) and posts nothing. The signature needs
 * script to be drawn; without it the server answers that the customer must sign.
 */
import { type ComponentProps, type FormEvent, useEffect, useRef, useState } from "react";
import type SignaturePad from "signature_pad";
import {
  cashCents,
  cashChange,
  checkAge,
  FAILURE_REASON_LABELS,
} from "#app/features/orders/delivery-proof.ts";
import type { DeliveryFailureReason, DriverAction } from "#app/features/orders/driver-actions.schema.ts";
import { centsToDollarString, formatCents } from "#app/utils/money.ts";
import { DANGER, Hidden, OUTLINE, PRIMARY, RunForm } from "./run-form.tsx";

/** The reasons in the order the screen lists them (the labels' own order), without loading zod. */
const FAILURE_REASONS = Object.keys(FAILURE_REASON_LABELS) as DeliveryFailureReason[];

const FIELD = "block min-h-12 w-full rounded-lg border-2 border-foreground bg-card px-3 text-xl";

/** A large input under its label. */
function Field({ label, ...input }: { label: string } & ComponentProps<"input">) {
  return (
    <label className="block space-y-1 text-lg">
      <span className="font-semibold">{label}</span>
      <input {...input} className={FIELD} />
    </label>
  );
}

export type DoorStop = {
  id: string;
  customerName: string;
  totalAmountCents: number;
  payWithCents: number | null;
};

/** Given `onAction`, the form hands its action to script (the offline queue) instead of posting. */
type DoorFormProps = { stop: DoorStop; csrf: string; onAction?: (action: DriverAction) => void };

/** A signature drawn with a finger (signature_pad on a canvas), sent as a PNG data URL. */
function SignatureField({ label, onChange }: { label: string; onChange: (png: string) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [signed, setSigned] = useState(false);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    // The pad and its library load when the form opens: most stops' forms are never opened.
    const details = element.closest("details");
    let signature: SignaturePad | null = null;
    let stopped = false;
    const ended = () => {
      setSigned(true);
      onChange(signature?.toDataURL("image/png") ?? "");
    };
    const start = async () => {
      if (details && !details.open) return;
      const { default: Pad } = await import("signature_pad");
      if (stopped || signature) return;
      // The drawing size is the shown size (one pixel per CSS pixel): a small PNG to send.
      element.width = element.clientWidth;
      element.height = element.clientHeight;
      signature = new Pad(element, { penColor: "#111", minWidth: 1.5, maxWidth: 3.5 });
      signature.addEventListener("endStroke", ended);
      pad.current = signature;
    };
    details?.addEventListener("toggle", start);
    void start();
    return () => {
      stopped = true;
      details?.removeEventListener("toggle", start);
      signature?.removeEventListener("endStroke", ended);
      signature?.off();
      pad.current = null;
    };
  }, [onChange]);

  function clear() {
    pad.current?.clear();
    setSigned(false);
    onChange("");
  }

  return (
    <fieldset className="space-y-2">
      <legend className="font-semibold text-lg">{label}</legend>
      <canvas
        ref={canvas}
        aria-label="Signature pad: the customer signs here"
        data-testid="signature-pad"
        className="block h-48 w-full touch-none rounded-lg border-2 border-foreground border-dashed bg-white"
      />
      <div className="flex items-center justify-between gap-2">
        <span className="text-lg">{signed ? "Signed" : "Not signed yet"}</span>
        <button type="button" className={OUTLINE} onClick={clear}>
          Clear
        </button>
      </div>
    </fieldset>
  );
}

function AgeLine({ dateOfBirth }: { dateOfBirth: string }) {
  if (!dateOfBirth) return null;
  const check = checkAge(dateOfBirth);
  return check.ok ? (
    <p className="font-bold text-primary text-xl" data-testid="age-check">
      Age {check.age}: 21 or older
    </p>
  ) : (
    <p role="alert" className="font-bold text-destructive text-xl" data-testid="age-check">
      {check.message}
    </p>
  );
}

function ChangeLine({ totalCents, cash }: { totalCents: number; cash: string }) {
  const received = cashCents(cash);
  if (received === null) return null;
  const result = cashChange(totalCents, received);
  return result.ok ? (
    <p className="font-bold text-2xl" data-testid="change-to-give">
      {result.changeCents === 0
        ? "Exact cash: no change"
        : `Change to give: ${formatCents(result.changeCents)}`}
    </p>
  ) : (
    <p role="alert" className="font-bold text-destructive text-xl" data-testid="change-to-give">
      {result.message}
    </p>
  );
}

/** 'Delivered': ID checked, cash received, signed; one screen. */
export function DeliveredForm({ stop, csrf, onAction }: DoorFormProps) {
  const [dateOfBirth, setDateOfBirth] = useState("");
  const [cash, setCash] = useState(centsToDollarString(stop.payWithCents ?? stop.totalAmountCents));
  const [signature, setSignature] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    const age = checkAge(dateOfBirth);
    const received = cashCents(cash);
    const paid = received === null ? null : cashChange(stop.totalAmountCents, received);
    const refusal = !age.ok
      ? age.message
      : paid === null
        ? "Enter the cash received"
        : !paid.ok
          ? paid.message
          : signature === ""
            ? "Ask the customer to sign on the screen"
            : null;
    if (refusal) {
      event.preventDefault();
      setProblem(refusal);
      return;
    }
    if (!onAction || received === null) return;
    event.preventDefault();
    onAction({
      kind: "deliver",
      orderId: stop.id,
      proof: { dateOfBirth, nameMatches: true, cashReceivedCents: received, signaturePng: signature },
    });
  }

  return (
    <RunForm
      onSubmit={submit}
      aria-label={`Delivered: ${stop.customerName}`}
      className="space-y-5 rounded-lg border-2 border-primary p-3"
    >
      <Hidden csrf={csrf} intent="deliver" orderId={stop.id} />
      <input type="hidden" name="signaturePng" value={signature} />
      <fieldset className="space-y-3">
        <legend className="font-bold text-xl">ID check</legend>
        <label className="flex min-h-12 items-start gap-3 text-lg">
          <input
            type="checkbox"
            name="nameMatches"
            required
            className="mt-1 size-7 shrink-0 accent-primary"
          />
          <span className="[overflow-wrap:anywhere]">
            The name on the ID is <strong>{stop.customerName}</strong>
          </span>
        </label>
        <Field
          label="Date of birth on the ID"
          type="date"
          name="dateOfBirth"
          required
          value={dateOfBirth}
          onChange={(event) => setDateOfBirth(event.target.value)}
        />
        <AgeLine dateOfBirth={dateOfBirth} />
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="font-bold text-xl">Cash</legend>
        <p className="text-lg">
          Total <strong className="text-2xl">{formatCents(stop.totalAmountCents)}</strong>
        </p>
        <Field
          label="Cash received ($)"
          name="cashReceived"
          inputMode="decimal"
          autoComplete="off"
          required
          value={cash}
          onChange={(event) => setCash(event.target.value)}
        />
        <ChangeLine totalCents={stop.totalAmountCents} cash={cash} />
      </fieldset>
      <SignatureField label="Customer's signature" onChange={setSignature} />
      {problem ? (
        <p
          role="alert"
          className="rounded-lg border-2 border-destructive px-3 py-2 font-semibold text-destructive"
        >
          {problem}
        </p>
      ) : null}
      <button type="submit" className={`${PRIMARY} w-full`}>
        Delivered
      </button>
    </RunForm>
  );
}

/** 'Could not deliver': the reason, and what happened for Other. */
export function CouldNotDeliverForm({ stop, csrf, onAction }: DoorFormProps) {
  const [reason, setReason] = useState<DeliveryFailureReason | "">("");

  function submit(event: FormEvent<HTMLFormElement>) {
    if (!onAction || reason === "") return;
    event.preventDefault();
    const note = String(new FormData(event.currentTarget).get("note") ?? "").trim();
    onAction({ kind: "fail", orderId: stop.id, reason, ...(note ? { note } : {}) });
  }

  return (
    <RunForm
      onSubmit={submit}
      aria-label={`Could not deliver: ${stop.customerName}`}
      className="space-y-4 rounded-lg border-2 border-destructive p-3"
    >
      <Hidden csrf={csrf} intent="fail" orderId={stop.id} />
      <fieldset className="space-y-2">
        <legend className="font-bold text-xl">Why?</legend>
        {FAILURE_REASONS.map((code) => (
          <label
            key={code}
            className="flex min-h-12 items-center gap-3 rounded-lg border-2 border-border px-3 text-lg has-checked:border-foreground"
          >
            <input
              type="radio"
              name="reason"
              value={code}
              required
              checked={reason === code}
              onChange={() => setReason(code)}
              className="size-6 shrink-0 accent-destructive"
            />
            {FAILURE_REASON_LABELS[code]}
          </label>
        ))}
      </fieldset>
      <Field
        label={`What happened?${reason === "other" ? "" : " (for Other)"}`}
        name="note"
        maxLength={500}
        required={reason === "other"}
      />
      <p className="text-lg">
        The order goes back to the store; staff check it back in or send it out again.
      </p>
      <button type="submit" className={`${DANGER} w-full`}>
        Could not deliver
      </button>
    </RunForm>
  );
}
