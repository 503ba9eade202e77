/**
 * The passkey ceremonies' posts (record 053, urlencoded forms answered with JSON): `options` then `register` by a signed-in
 * customer (CSRF token in the X-CSRF-Token header), `sign-in-options` then `sign-in` by anyone. The
 * browser's answer comes as one field, `response`, of the JSON `@simplewebauthn/browser` gives.
 */
import { data } from "react-router";
import {
  customerSessionCookies,
  readCookie,
  readCustomerToken,
} from "#app/features/customers/customer-sessions.server.ts";
import {
  authenticationOptions,
  PASSKEY_COOKIE,
  passkeyChallengeCookie,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from "#app/features/customers/passkeys.server.ts";
import { customerOf } from "#app/routes/shared/customer-session.server.ts";
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import { toastHeader } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/passkeys";

async function readBody(request: Request): Promise<Record<string, unknown>> {
  try {
    const form = await request.formData();
    const body: Record<string, unknown> = {};
    for (const [name, value] of form) if (typeof value === "string") body[name] = value;
    return body;
  } catch {
    return {};
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBody(request);
  const challengeToken = readCookie(request, PASSKEY_COOKIE);
  const json = (value: unknown, init: { status?: number; headers?: Headers } = {}) => {
    const headers = init.headers ?? new Headers();
    for (const [name, value] of Object.entries(PRIVATE_NO_STORE)) headers.set(name, value);
    return data(value, { status: init.status ?? 200, headers });
  };
  switch (body.step) {
    case "options":
    case "register": {
      const customer = await customerOf(request);
      if (!customer) return json({ ok: false, error: "Sign in first." }, { status: 401 });
      if (request.headers.get("X-CSRF-Token") !== customer.csrfToken) {
        return json({ ok: false, error: "This page has expired. Reload it and try again." }, { status: 403 });
      }
      if (body.step === "options") {
        const { token, options } = await registrationOptions(customer);
        return json(
          { ok: true, options },
          { headers: new Headers({ "Set-Cookie": passkeyChallengeCookie(token) }) },
        );
      }
      const result = await verifyRegistration(customer.customerId, challengeToken, body);
      return json(result, { status: result.ok ? 200 : 400 });
    }
    case "sign-in-options": {
      const { token, options } = await authenticationOptions();
      return json(
        { ok: true, options },
        { headers: new Headers({ "Set-Cookie": passkeyChallengeCookie(token) }) },
      );
    }
    case "sign-in": {
      const result = await verifyAuthentication({
        token: challengeToken,
        body,
        ipAddress: context.get(requestInfoContext).clientAddress,
        userAgent: request.headers.get("User-Agent") ?? "",
        previousToken: readCustomerToken(request),
      });
      if (!result.ok) {
        const headers = new Headers();
        if ("retryAfterSeconds" in result) headers.set("Retry-After", String(result.retryAfterSeconds));
        return json(
          { ok: false, error: result.error },
          { status: "retryAfterSeconds" in result ? 429 : 400, headers },
        );
      }
      const headers = new Headers();
      for (const cookie of customerSessionCookies(result.sessionToken)) headers.append("Set-Cookie", cookie);
      headers.append("Set-Cookie", await toastHeader({ path: "/account", title: "You are signed in" }));
      return json({ ok: true }, { headers });
    }
    default:
      return json({ ok: false, error: "Unknown step." }, { status: 400 });
  }
}
