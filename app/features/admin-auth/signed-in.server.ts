import { redirect } from "react-router";
import type { Executor } from "#app/db/client.server.ts";
import type { StaffRole } from "#app/db/schema.ts";
import { homeOf } from "#app/features/staff/admin-routes.ts";
import { mustEnrolFirst } from "#app/features/staff/two-factor.server.ts";
import { toastHeader } from "#app/utils/toast.server.ts";
import { NO_STORE } from "./guard.server.ts";
import { knownDeviceCookie } from "./known-device.server.ts";
import { safeAdminRedirect } from "./login.schema.ts";
import { sessionCookies } from "./sessions.server.ts";
import { clearedChallengeCookie } from "./sign-in-challenge.server.ts";

/**
 * The answer to a finished sign-in (after the password, or after the code): cookies, toast, redirect.
 * The 'Login Successful' toast welcomes to the dashboard, so it is left out when the guard sends the
 * account to set up its second factor first (decision 27): there it would sit over the enrolment
 * page's own buttons.
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
  if (!(await mustEnrolFirst(executor, { twoFactor: input.hasSecondFactor, role: input.role }))) {
    headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        title: "Login Successful",
        description: "Welcome to the admin dashboard!",
      }),
    );
  }
  return redirect(safeAdminRedirect(input.redirectTo, homeOf(input.role)), { headers });
}
