import { data, Form, useNavigation } from "react-router";
import { useCheckedSubmit } from "#app/components/admin/checked-submit.ts";
import { CsrfInput } from "#app/components/admin/csrf.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Field, FieldError, Input, Label } from "#app/components/ui/input.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import {
  readVerificationMode,
  saveVerificationMode,
} from "#app/features/checkout/contact-verification.server.ts";
import {
  VERIFICATION_MODE_LABELS,
  VERIFICATION_MODES,
  verificationModeSchema,
} from "#app/features/checkout/contact-verification.ts";
import { smsConfigured } from "#app/features/email/sms.server.ts";
import {
  formValuesOf,
  type LimitsFormValues,
  limitsFieldErrors,
  limitsFormSchema,
  settingsFromForm,
} from "#app/features/purchase-limits/purchase-limits.schema.ts";
import {
  getPurchaseLimitSettings,
  savePurchaseLimitSettings,
} from "#app/features/purchase-limits/purchase-limits.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/limits";

export function meta() {
  return [{ title: "Purchase Limits | Admin" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const [settings, verification] = await Promise.all([getPurchaseLimitSettings(), readVerificationMode()]);
  return { values: formValuesOf(settings), verification, texts: smsConfigured() };
}

const FIELDS = Object.keys(limitsFormSchema.shape) as (keyof LimitsFormValues)[];

export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  if (form.get("intent") === "verification") {
    // One click switches it (P-36): each choice is its own button.
    const parsed = verificationModeSchema.safeParse({ mode: form.get("mode") });
    if (!parsed.success)
      return data({ fieldErrors: {} as ReturnType<typeof limitsFieldErrors> }, { status: 400 });
    await saveVerificationMode(parsed.data.mode, { audit: auditBy(admin, context) });
    return redirectWithToast("/admin/settings/limits", {
      type: "success",
      title: "Success",
      description: `Verified phone before orders: ${VERIFICATION_MODE_LABELS[parsed.data.mode].label}`,
    });
  }
  const raw = Object.fromEntries(FIELDS.map((field) => [field, form.get(field) ?? undefined]));
  const parsed = limitsFormSchema.safeParse(raw);
  if (!parsed.success) return data({ fieldErrors: limitsFieldErrors(parsed.error) }, { status: 400 });
  await savePurchaseLimitSettings(settingsFromForm(parsed.data), { audit: auditBy(admin, context) });
  return redirectWithToast("/admin/settings/limits", {
    type: "success",
    title: "Success",
    description: "Purchase limits saved",
  });
}

type FieldSpec = { name: keyof LimitsFormValues; label: string; hint: string; unit: string };

const STATE_FIELDS: FieldSpec[] = [
  { name: "dcLimit", label: "Washington DC", hint: "Most flower equivalent per order", unit: "g" },
  { name: "vaLimit", label: "Virginia", hint: "Most flower equivalent per order", unit: "g" },
];
const EQUIVALENCE_FIELDS: FieldSpec[] = [
  { name: "ediblesPer100MgThc", label: "Edibles", hint: "Grams of flower per 100 mg of THC", unit: "g" },
  { name: "cartridgesPerGram", label: "Cartridges", hint: "Grams of flower per 1 g of oil", unit: "g" },
  { name: "concentratesPerGram", label: "Concentrates", hint: "Grams of flower per 1 g", unit: "g" },
];

export default function LimitsSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { errors: clientErrors, onSubmit } = useCheckedSubmit((form) => {
    const parsed = limitsFormSchema.safeParse(
      Object.fromEntries(FIELDS.map((field) => [field, form.get(field)])),
    );
    return parsed.success ? null : limitsFieldErrors(parsed.error);
  });
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};

  const field = (spec: FieldSpec) => (
    <div key={spec.name} className="space-y-1.5">
      <Label htmlFor={`field-${spec.name}`}>
        {spec.label} ({spec.unit})
      </Label>
      <Input
        id={`field-${spec.name}`}
        name={spec.name}
        type="number"
        inputMode="decimal"
        step="0.001"
        min="0"
        defaultValue={loaderData.values[spec.name]}
        aria-invalid={errors[spec.name] ? true : undefined}
        aria-describedby={`hint-${spec.name}${errors[spec.name] ? ` error-${spec.name}` : ""}`}
      />
      <p id={`hint-${spec.name}`} className="text-muted-foreground text-xs">
        {spec.hint}
      </p>
      <FieldError id={`error-${spec.name}`}>{errors[spec.name]}</FieldError>
    </div>
  );

  return (
    <div className="mx-auto max-w-3xl">
      <AdminPageHeader
        title="Purchase Limits"
        description="What one order may hold. Confirm these figures with counsel: the defaults (DC 56 g, Virginia 28 g) are a starting point, not legal advice."
      />
      <VerificationCard mode={loaderData.verification} texts={loaderData.texts} />
      <Form method="post" onSubmit={onSubmit} noValidate className="space-y-6">
        <CsrfInput />
        <Card className="space-y-5 p-5 sm:p-6">
          <div>
            <h2 className="font-semibold">Per order, by delivery state</h2>
            <p className="text-muted-foreground text-sm">
              Each size counts its flower equivalent (set on the product) times its quantity.
            </p>
          </div>
          <div className="grid gap-5 sm:grid-cols-2">{STATE_FIELDS.map(field)}</div>
          <Field
            id="field-maxQuantityPerSize"
            label="Most of one size per order"
            className="sm:w-1/2 sm:pr-2.5"
            error={errors.maxQuantityPerSize}
            errorId="error-maxQuantityPerSize"
          >
            <Input
              id="field-maxQuantityPerSize"
              name="maxQuantityPerSize"
              type="number"
              inputMode="numeric"
              step="1"
              min="1"
              defaultValue={loaderData.values.maxQuantityPerSize}
              aria-invalid={errors.maxQuantityPerSize ? true : undefined}
              aria-describedby={errors.maxQuantityPerSize ? "error-maxQuantityPerSize" : undefined}
            />
          </Field>
        </Card>
        <Card className="space-y-5 p-5 sm:p-6">
          <div>
            <h2 className="font-semibold">Flower equivalences</h2>
            <p className="text-muted-foreground text-sm">
              Used to weigh the demo catalogue and sizes saved before weights existed. A product's own "Flower
              eq." figure is what counts; changing these does not change saved products.
            </p>
          </div>
          <div className="grid gap-5 sm:grid-cols-3">{EQUIVALENCE_FIELDS.map(field)}</div>
          <p className="text-muted-foreground text-sm">Mushrooms contain no cannabis and count 0 g.</p>
        </Card>
        <div className="flex justify-end">
          <Button type="submit" size="lg" disabled={saving}>
            {saving ? "Saving..." : "Save Limits"}
          </Button>
        </div>
      </Form>
    </div>
  );
}

/**
 * P-36: a code to the order's phone before a cash order holds stock and a slot. Three buttons,
 * so switching it on when fake orders arrive is one click.
 */
function VerificationCard({ mode, texts }: { mode: (typeof VERIFICATION_MODES)[number]; texts: boolean }) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "verification";
  return (
    <Form method="post" className="mb-6">
      <CsrfInput />
      <input type="hidden" name="intent" value="verification" />
      <Card className="space-y-4 p-5 sm:p-6">
        <div>
          <h2 className="font-semibold" id="verification-heading">
            Verified phone before orders
          </h2>
          <p className="text-muted-foreground text-sm">
            {texts
              ? "A 6-digit code goes to the order's phone by text; the order is placed only with it."
              : "Texts are not set up (TWILIO_* settings): the 6-digit code goes to the order's email."}
          </p>
        </div>
        <fieldset aria-labelledby="verification-heading" className="grid gap-2 sm:grid-cols-3">
          {VERIFICATION_MODES.map((value) => {
            const current = value === mode;
            return (
              <button
                key={value}
                type="submit"
                name="mode"
                value={value}
                aria-pressed={current}
                disabled={saving}
                className={`min-h-11 rounded-md border px-3 py-2 text-left text-sm ${
                  current
                    ? "border-primary bg-primary text-primary-foreground"
                    : "border-border bg-card hover:bg-secondary"
                }`}
              >
                <span className="block font-semibold">{VERIFICATION_MODE_LABELS[value].label}</span>
                <span className={`block text-xs ${current ? "" : "text-muted-foreground"}`}>
                  {VERIFICATION_MODE_LABELS[value].hint}
                </span>
              </button>
            );
          })}
        </fieldset>
      </Card>
    </Form>
  );
}
