import { useEffect, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { InputField } from "#app/components/admin/input-field.tsx";
import { SignInCard } from "#app/components/admin/sign-in-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { db } from "#app/db/client.server.ts";
import { homeOf } from "#app/features/staff/admin-routes.ts";
import { isSameOrigin, NO_STORE } from "#app/features/staff/guard.server.ts";
import { readKnownDeviceToken } from "#app/features/staff/known-device.server.ts";
import { loginSchema, signInNotice } from "#app/features/staff/login.schema.ts";
import { signIn, throttledMessage } from "#app/features/staff/login.server.ts";
import { findSession, readSessionToken } from "#app/features/staff/sessions.server.ts";
import { challengeCookie } from "#app/features/staff/sign-in-challenge.server.ts";
import { signedInResponse } from "#app/routes/shared/signed-in-response.server.ts";
import { config } from "#app/utils/env.server.ts";
import { readSingleValueForm } from "#app/utils/form-data.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { keepRetryAfter } from "#app/utils/retry-after.ts";
import { toast } from "#app/utils/toast-client.ts";
import type { Route } from "./+types/login";

export function meta() {
  return [{ title: "Admin Login" }, { name: "robots", content: "noindex, nofollow" }];
}

export function headers(args: Route.HeadersArgs) {
  return keepRetryAfter(args, { "Cache-Control": NO_STORE });
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await findSession(await db(), readSessionToken(request));
  if (session) throw redirect(homeOf(session.role), { headers: { "Cache-Control": NO_STORE } });
  const url = new URL(request.url);
  const redirectTo = url.searchParams.get("redirectTo");
  // The second step sends a locked or expired attempt back here with a reason to show.
  const notice = signInNotice(url.searchParams.get("notice"));
  return data(
    { redirectTo, notice, storeName: config().STORE_NAME },
    { headers: { "Cache-Control": NO_STORE } },
  );
}

type ActionData = { error: { title: string; description: string }; fieldErrors?: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOrigin(request)) {
    return data<ActionData>(
      { error: { title: "Login Failed", description: "Cross-site request refused" } },
      { status: 403 },
    );
  }
  const parsed = loginSchema.safeParse(Object.fromEntries(await readSingleValueForm(request)));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data<ActionData>(
      { error: { title: "Login Failed", description: "Invalid credentials" }, fieldErrors },
      { status: 400 },
    );
  }
  const { clientAddress, requestId } = context.get(requestInfoContext);
  const database = await db();
  const result = await signIn(database, {
    email: parsed.data.email,
    password: parsed.data.password,
    ipAddress: clientAddress,
    previousToken: readSessionToken(request),
    knownDeviceToken: readKnownDeviceToken(request),
    userAgent: request.headers.get("User-Agent") ?? "",
    redirectTo: parsed.data.redirectTo,
    requestId,
  });
  if (!result.ok && result.reason === "second-factor") {
    return redirect("/admin/login/code", {
      headers: { "Cache-Control": NO_STORE, "Set-Cookie": challengeCookie(result.challengeToken) },
    });
  }
  if (!result.ok) {
    if (result.reason === "throttled") {
      return data<ActionData>(
        { error: { title: "Login Failed", description: throttledMessage(result.retryAfterSeconds) } },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    }
    return data<ActionData>(
      { error: { title: "Login Failed", description: "Invalid credentials" } },
      { status: 401 },
    );
  }
  return signedInResponse(database, {
    token: result.token,
    email: parsed.data.email,
    role: result.role,
    redirectTo: parsed.data.redirectTo,
    hasSecondFactor: false,
  });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [values, setValues] = useState({ email: "", password: "" });
  const fieldErrors = actionData?.fieldErrors ?? {};

  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error.title, { description: actionData.error.description });
  }, [actionData]);

  return (
    <SignInCard title="Admin Login" subtitle={`${loaderData.storeName} back office`}>
      <Form method="post" className="space-y-4" noValidate={false}>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo ?? ""} />
        {CREDENTIALS.map((field) => (
          <InputField
            key={field.name}
            id={field.name}
            {...field}
            required
            value={values[field.name]}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
            error={fieldErrors[field.name]}
          />
        ))}
        {loaderData.notice && !actionData ? (
          <p role="status" className="rounded-md bg-secondary px-3 py-2 text-secondary-foreground text-sm">
            {loaderData.notice}
          </p>
        ) : null}
        {actionData?.error ? (
          <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-destructive text-sm">
            {actionData.error.description}
          </p>
        ) : null}
        <Button
          type="submit"
          className="w-full"
          size="lg"
          disabled={submitting || !values.email || !values.password}
        >
          {submitting ? "Signing in..." : "Sign In"}
        </Button>
      </Form>
    </SignInCard>
  );
}

const CREDENTIALS = [
  { name: "email", label: "Email", type: "email", autoComplete: "username" },
  { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
] as const;
