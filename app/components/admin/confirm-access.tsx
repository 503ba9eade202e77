import { useNavigation } from "react-router";
import { PostForm } from "#app/components/admin/csrf.tsx";
import { PasswordField, SecondFactorCodeField } from "#app/components/admin/password-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FieldError } from "#app/components/ui/input.tsx";

/**
 * 'Confirm it's you' (record 037): the password and, with two-factor sign-in on, a code from the
 * app or a recovery code, before the second factor or the password can be changed. Posts the
 * `confirm-access` intent to the page it is on.
 */
export function ConfirmAccess(props: {
  twoFactor: boolean;
  what: string;
  errors?: { password?: string; code?: string; form?: string };
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "confirm-access";
  const errors = props.errors ?? {};
  return (
    <Card className="space-y-4 p-4 sm:p-6" aria-labelledby="confirm-access-title">
      <div className="space-y-1">
        <h2 id="confirm-access-title" className="font-display text-primary text-xl">
          Confirm it's you
        </h2>
        <p className="text-muted-foreground text-sm">
          {props.what} You will not be asked again for 10 minutes.
        </p>
      </div>
      <PostForm intent="confirm-access" className="max-w-sm space-y-4">
        <PasswordField name="password" label="Your password" error={errors.password} />
        {props.twoFactor ? (
          <SecondFactorCodeField
            id="confirm-code"
            label="Code from your app, or a recovery code"
            error={errors.code}
          />
        ) : null}
        <FieldError id="confirm-access-error">{errors.form}</FieldError>
        <Button type="submit" disabled={busy}>
          {busy ? "Checking..." : "Confirm"}
        </Button>
      </PostForm>
    </Card>
  );
}
