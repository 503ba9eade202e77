/** The second step of signing in (P-27): the code from the app, or a recovery code. */
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { SecondFactorCodeField } from "#app/components/admin/password-field.tsx";
import { SignInCard } from "#app/components/admin/sign-in-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { db } from "#app/db/client.server.ts";
import { originOf } from "#app/features/audit/audit.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { isSameOrigin, NO_STORE } from "#app/features/staff/guard.server.ts";
import { isKnownDevice, readKnownDeviceToken } from "#app/features/staff/known-device.server.ts";
import { codeSchema, signInNoticeUrl } from "#app/features/staff/login.schema.ts";
import { completeSignIn } from "#app/features/staff/login.server.ts";
import { readSessionToken } from "#app/features/staff/sessions.server.ts";
import {
  answerSignInChallenge,
  clearedChallengeCookie,
  findSignInChallenge,
  readChallengeToken,
} from "#app/features/staff/sign-in-challenge.server.ts";
import { signedInResponse } from "#app/routes/shared/signed-in-response.server.ts";
import { readSingleValueForm } from "#app/utils/form-data.server.ts";
import { requestInfoContext } from "#app/utils/request-context.ts";
import type { Route } from "./+types/login-code";

export function meta() {
  return [{ title: "Two-factor sign-in" }, { name: "robots", content: "noindex, nofollow" }];
}

export function headers() {
  return { "Cache-Control": NO_STORE };
}

function backToSignIn(notice: "locked" | "expired") {
  return redirect(signInNoticeUrl(notice), {
    headers: { "Cache-Control": NO_STORE, "Set-Cookie": clearedChallengeCookie() },
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const challenge = await findSignInChallenge(await db(), readChallengeToken(request));
  if (!challenge) throw backToSignIn("expired");
  return data({}, { headers: { "Cache-Control": NO_STORE } });
}

type ActionData = { error: string };

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOrigin(request))
    return data<ActionData>({ error: "Cross-site request refused" }, { status: 403 });
  const parsed = codeSchema.safeParse(Object.fromEntries(await readSingleValueForm(request)));
  if (!parsed.success) {
    return data<ActionData>({ error: parsed.error.issues[0]?.message ?? "Enter the code" }, { status: 400 });
  }
  const database = await db();
  const { clientAddress } = context.get(requestInfoContext);
  const origin = originOf(context);
  const result = await answerSignInChallenge(database, idPhotoKeyring(), {
    token: readChallengeToken(request),
    code: parsed.data.code,
    ipAddress: clientAddress,
    origin,
  });
  if (!result.ok) {
    if (result.reason === "wrong") {
      const left = result.attemptsLeft;
      return data<ActionData>(
        { error: `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.` },
        { status: 401 },
      );
    }
    return backToSignIn(result.reason);
  }
  const token = await completeSignIn(database, {
    user: result.user,
    ipAddress: clientAddress,
    userAgent: request.headers.get("User-Agent") ?? "",
    previousToken: readSessionToken(request),
    origin,
    method: result.method,
    knownDevice: await isKnownDevice(database, readKnownDeviceToken(request), result.user.email),
    now: new Date(),
  });
  return signedInResponse(database, {
    token,
    email: result.user.email,
    role: result.user.role,
    redirectTo: result.redirectTo,
    hasSecondFactor: true,
  });
}

export default function SignInCode({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <SignInCard
      title="Two-factor sign-in"
      subtitle="Enter the 6-digit code from your authenticator app, or one of your recovery codes."
    >
      <Form method="post" className="space-y-4">
        <SecondFactorCodeField id="code" label="Code" error={actionData?.error} autoFocus />
        <Button type="submit" className="w-full" size="lg" disabled={submitting}>
          {submitting ? "Checking..." : "Verify"}
        </Button>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/admin/login" className="inline-flex min-h-11 items-center text-primary underline">
          Start again
        </Link>
      </p>
    </SignInCard>
  );
}
