import { useEffect, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { FieldError, Input, Label } from "#app/components/ui/input.tsx";
import { db } from "#app/db/client.server.ts";
import { isSameOrigin, NO_STORE } from "#app/features/admin-auth/guard.server.ts";
import { knownDeviceCookie, readKnownDeviceToken } from "#app/features/admin-auth/known-device.server.ts";
import { loginSchema, safeAdminRedirect } from "#app/features/admin-auth/login.schema.ts";
import { signIn, throttledMessage } from "#app/features/admin-auth/login.server.ts";
import { findSession, readSessionToken, sessionCookie } from "#app/features/admin-auth/sessions.server.ts";
import { config } from "#app/utils/env.server.ts";
import { readFormData } from "#app/utils/form-data.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { keepRetryAfter } from "#app/utils/retry-after.ts";
import { toastHeader } from "#app/utils/toast.server.ts";
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
  if (session) throw redirect("/admin/dashboard", { headers: { "Cache-Control": NO_STORE } });
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return data({ redirectTo, storeName: config().STORE_NAME }, { headers: { "Cache-Control": NO_STORE } });
}

type ActionData = { error: { title: string; description: string }; fieldErrors?: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOrigin(request)) {
    return data<ActionData>(
      { error: { title: "Login Failed", description: "Cross-site request refused" } },
      { status: 403 },
    );
  }
  const parsed = loginSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data<ActionData>(
      { error: { title: "Login Failed", description: "Invalid credentials" }, fieldErrors },
      { status: 400 },
    );
  }
  const { clientAddress } = context.get(requestInfoContext);
  const database = await db();
  const result = await signIn(database, {
    email: parsed.data.email,
    password: parsed.data.password,
    ipAddress: clientAddress,
    previousToken: readSessionToken(request),
    knownDeviceToken: readKnownDeviceToken(request),
  });
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
  const headers = new Headers({ "Cache-Control": NO_STORE });
  headers.append("Set-Cookie", sessionCookie(result.token));
  headers.append("Set-Cookie", await knownDeviceCookie(database, parsed.data.email));
  headers.append(
    "Set-Cookie",
    await toastHeader({
      type: "success",
      title: "Login Successful",
      description: "Welcome to the admin dashboard!",
    }),
  );
  return redirect(safeAdminRedirect(parsed.data.redirectTo), { headers });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const fieldErrors = actionData?.fieldErrors ?? {};

  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error.title, { description: actionData.error.description });
  }, [actionData]);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-b from-forest-50 to-background px-4 py-12">
      <Card className="w-full max-w-sm p-6 sm:p-8">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
            <Icon name="lock-keyhole" className="size-6" />
          </span>
          <div>
            <h1 className="font-display text-2xl text-primary">Admin Login</h1>
            <p className="mt-1 text-muted-foreground text-sm">{loaderData.storeName} back office</p>
          </div>
        </div>
        <Form method="post" className="space-y-4" noValidate={false}>
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo ?? ""} />
          <div className="space-y-1.5">
            <Label htmlFor="email">Email</Label>
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={fieldErrors.email ? true : undefined}
              aria-describedby={fieldErrors.email ? "email-error" : undefined}
            />
            <FieldError id="email-error">{fieldErrors.email}</FieldError>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="password">Password</Label>
            <Input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={fieldErrors.password ? true : undefined}
              aria-describedby={fieldErrors.password ? "password-error" : undefined}
            />
            <FieldError id="password-error">{fieldErrors.password}</FieldError>
          </div>
          {actionData?.error ? (
            <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-destructive text-sm">
              {actionData.error.description}
            </p>
          ) : null}
          <Button type="submit" className="w-full" size="lg" disabled={submitting || !email || !password}>
            {submitting ? "Signing in..." : "Sign In"}
          </Button>
        </Form>
      </Card>
    </main>
  );
}
