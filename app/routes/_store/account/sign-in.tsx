import { data, Form, redirect, useNavigation } from "react-router";
import { PasskeySignIn } from "#app/components/account/passkey-sign-in.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Field, Input } from "#app/components/ui/input.tsx";
import { waitPhrase } from "#app/features/abuse/rate-limits.server.ts";
import { privatePageMeta } from "#app/features/catalog/seo.ts";
import {
  CODE_VALID_MINUTES,
  signInCodeSchema,
  signInEmailSchema,
} from "#app/features/customers/customer.schema.ts";
import {
  customerSessionCookies,
  readCustomerToken,
} from "#app/features/customers/customer-sessions.server.ts";
import { checkSignInCode, requestSignInCode } from "#app/features/customers/sign-in.server.ts";
import { smsConfigured } from "#app/features/email/sms.server.ts";
import { customerOf } from "#app/routes/shared/customer-session.server.ts";
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";
import { normalizePhone } from "#app/utils/phone.server.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { toastHeader } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/sign-in";

export function meta({ matches }: Route.MetaArgs) {
  return privatePageMeta(matches, "Sign in");
}

export { privateNoStoreHeaders as headers } from "#app/utils/cache-headers.ts";

export async function loader({ request }: Route.LoaderArgs) {
  if (await customerOf(request)) throw redirect("/account", { headers: PRIVATE_NO_STORE });
  return { phones: smsConfigured() };
}

/** A phone (E.164) when the shop sends texts and the value is not an e-mail address; else null. */
function phoneTyped(value: string) {
  if (!smsConfigured() || value.includes("@")) return null;
  return normalizePhone(value);
}

type SignInAnswer = { step: "email" | "code"; email: string; error?: string; sent?: boolean };

function answer(body: SignInAnswer, status = 200, headers: HeadersInit = PRIVATE_NO_STORE) {
  return data(body, { status, headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { clientAddress } = context.get(requestInfoContext);
  const intent = form.get("intent");
  if (intent === "send") {
    const phone = phoneTyped(String(form.get("email") ?? ""));
    if (phone) {
      const sent = await requestSignInCode({ phone, ipAddress: clientAddress });
      if (!sent.ok) {
        return answer(
          {
            step: "email",
            email: phone,
            error: `Too many codes asked for. Please try again in ${waitPhrase(sent.retryAfterSeconds)}.`,
          },
          429,
          { ...PRIVATE_NO_STORE, "Retry-After": String(sent.retryAfterSeconds) },
        );
      }
      return answer({ step: "code", email: phone, sent: true });
    }
    const parsed = signInEmailSchema.safeParse({ email: form.get("email") ?? "" });
    if (!parsed.success) {
      return answer(
        {
          step: "email",
          email: String(form.get("email") ?? "").slice(0, 320),
          error: parsed.error.issues[0]?.message,
        },
        400,
      );
    }
    const sent = await requestSignInCode({ email: parsed.data.email, ipAddress: clientAddress });
    if (!sent.ok) {
      return answer(
        {
          step: "email",
          email: parsed.data.email,
          error: `Too many codes asked for. Please try again in ${waitPhrase(sent.retryAfterSeconds)}.`,
        },
        429,
        { ...PRIVATE_NO_STORE, "Retry-After": String(sent.retryAfterSeconds) },
      );
    }
    return answer({ step: "code", email: parsed.data.email, sent: true });
  }
  const phone = phoneTyped(String(form.get("email") ?? ""));
  const parsed = signInCodeSchema.safeParse({
    email: phone ? "phone@sign-in.invalid" : (form.get("email") ?? ""),
    code: form.get("code") ?? "",
  });
  if (!parsed.success) {
    const email = String(form.get("email") ?? "").slice(0, 320);
    return answer({ step: "code", email, error: parsed.error.issues.at(-1)?.message }, 400);
  }
  const checked = await checkSignInCode({
    ...(phone ? { phone } : { email: parsed.data.email }),
    code: parsed.data.code,
    ipAddress: clientAddress,
    userAgent: request.headers.get("User-Agent") ?? "",
    previousToken: readCustomerToken(request),
  });
  if (checked.ok) {
    const headers = new Headers(PRIVATE_NO_STORE);
    for (const cookie of customerSessionCookies(checked.token)) headers.append("Set-Cookie", cookie);
    const joined =
      checked.joinedOrders > 0
        ? ` ${checked.joinedOrders} earlier order${checked.joinedOrders === 1 ? "" : "s"} placed with this e-mail ${checked.joinedOrders === 1 ? "is" : "are"} now in your account.`
        : "";
    headers.append(
      "Set-Cookie",
      await toastHeader({
        path: "/account",
        title: "You are signed in",
        description: joined.trim() || undefined,
      }),
    );
    return redirect("/account", { headers });
  }
  const email = phone ?? parsed.data.email;
  switch (checked.reason) {
    case "no-account":
      return answer(
        {
          step: "email",
          email: "",
          error:
            "No account has this phone as its verified phone yet. Sign in with your e-mail address first.",
        },
        400,
      );
    case "wrong":
      return answer(
        {
          step: "code",
          email,
          error: `That code is not right. ${checked.attemptsLeft} ${checked.attemptsLeft === 1 ? "try" : "tries"} left.`,
        },
        400,
      );
    case "expired":
      return answer(
        { step: "email", email, error: "That code has expired or was used up. Ask for a new one." },
        400,
      );
    case "throttled":
      return answer(
        {
          step: "code",
          email,
          error: `Too many tries. Please try again in ${waitPhrase(checked.retryAfterSeconds)}.`,
        },
        429,
        { ...PRIVATE_NO_STORE, "Retry-After": String(checked.retryAfterSeconds) },
      );
  }
}

export default function SignInPage({ actionData, loaderData }: Route.ComponentProps) {
  const phones = loaderData?.phones ?? false;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const step = actionData?.step ?? "email";
  return (
    <div className="mx-auto w-full max-w-md px-4 pt-8 pb-28 sm:pt-14">
      <Card className="p-6 sm:p-8">
        <h1 className="font-display text-3xl font-semibold text-primary">Sign in</h1>
        {step === "email" ? (
          <>
            <p className="mt-2 text-muted-foreground">
              No password: we {phones ? "e-mail or text" : "e-mail"} you a 6-digit code. Your orders, saved
              addresses and details are then in one place.
            </p>
            <Form method="post" className="mt-6 space-y-4" noValidate>
              <input type="hidden" name="intent" value="send" />
              <Field
                id="email"
                label={phones ? "E-mail address or phone" : "E-mail address"}
                error={actionData?.error}
                errorId="email-error"
              >
                <Input
                  id="email"
                  name="email"
                  type={phones ? "text" : "email"}
                  autoComplete="email"
                  inputMode={phones ? "text" : "email"}
                  required
                  defaultValue={actionData?.email ?? ""}
                  aria-describedby={actionData?.error ? "email-error" : undefined}
                />
              </Field>
              <Button type="submit" size="lg" className="w-full" disabled={busy}>
                {phones ? "Send me a code" : "E-mail me a code"}
              </Button>
            </Form>
            <PasskeySignIn />
          </>
        ) : (
          <>
            <p className="mt-2 text-muted-foreground" role="status">
              We sent a code to{" "}
              <strong className="text-foreground">
                {actionData?.email.startsWith("+") ? formatPhone(actionData.email) : actionData?.email}
              </strong>
              . It works for {CODE_VALID_MINUTES} minutes.
            </p>
            <Form method="post" className="mt-6 space-y-4" noValidate>
              <input type="hidden" name="intent" value="check" />
              <input type="hidden" name="email" value={actionData?.email ?? ""} />
              <Field id="code" label="6-digit code" error={actionData?.error} errorId="code-error">
                <Input
                  id="code"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]*"
                  maxLength={8}
                  required
                  autoFocus
                  className="font-mono text-lg tracking-[0.3em]"
                  aria-describedby={actionData?.error ? "code-error" : undefined}
                />
              </Field>
              <Button type="submit" size="lg" className="w-full" disabled={busy}>
                Sign in
              </Button>
            </Form>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="email" value={actionData?.email ?? ""} />
              <Button type="submit" variant="ghost" className="min-h-11 w-full" disabled={busy}>
                Send a new code
              </Button>
            </Form>
          </>
        )}
      </Card>
    </div>
  );
}
