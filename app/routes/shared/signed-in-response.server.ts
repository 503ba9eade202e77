import { redirect } from "react-router";
import type { Executor } from "#app/db/client.server.ts";
import type { StaffRole } from "#app/db/schema.ts";
import { homeOf } from "#app/features/staff/admin-routes.ts";
import { NO_STORE } from "#app/features/staff/guard.server.ts";
import { knownDeviceCookie } from "#app/features/staff/known-device.server.ts";
import { safeAdminRedirect } from "#app/features/staff/login.schema.ts";
import { sessionCookies } from "#app/features/staff/sessions.server.ts";
import { clearedChallengeCookie } from "#app/features/staff/sign-in-challenge.server.ts";
import { mustEnrolFirst } from "#app/features/staff/two-factor.server.ts";
import { pathOf, toastHeader } from "#app/utils/toast.server.ts";

/**
 * The answer to a finished sign-in (after the password, or after the code): cookies, toast, redirect.
 * The 'Login Successful' toast belongs to the page the sign-in opens, so it is left out when the
 * guard sends the account to set up its second factor first (P-27): there it would sit over
 * the enrolment page's own buttons.
 */
export async function signedInResponse(
  executor: Executor,
  input: {
    token: string;
    email: string;
    role: StaffRole;
    redirectTo: string | null | undefined;
    hasSecondFactor: boolean;
  },
) {
  const headers = new Headers({ "Cache-Control": NO_STORE });
  for (const cookie of sessionCookies(input.token)) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await knownDeviceCookie(executor, input.email));
  headers.append("Set-Cookie", clearedChallengeCookie());
  const target = safeAdminRedirect(input.redirectTo, homeOf(input.role));
  if (!(await mustEnrolFirst(executor, { twoFactor: input.hasSecondFactor, role: input.role }))) {
    const path = pathOf(target);
    headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        title: "Login Successful",
        // The spec's welcome names the dashboard: said only where the dashboard is what opens.
        description: path === "/admin/dashboard" ? "Welcome to the admin dashboard!" : undefined,
        path,
      }),
    );
  }
  return redirect(target, { headers });
}
