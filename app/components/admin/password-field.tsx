import { InputField } from "#app/components/admin/input-field.tsx";
import { FieldError, Input, Label } from "#app/components/ui/input.tsx";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "#app/utils/password-length.ts";

/** A password input with its label, hint and error (account and invitation pages); by default the current one. */
export function PasswordField(props: {
  name: string;
  label: string;
  autoComplete?: "current-password" | "new-password";
  error?: string;
  hint?: string;
}) {
  const describedBy = [props.error ? `${props.name}-error` : "", props.hint ? `${props.name}-hint` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="space-y-1.5">
      <Label htmlFor={props.name}>{props.label}</Label>
      <Input
        id={props.name}
        name={props.name}
        type="password"
        autoComplete={props.autoComplete ?? "current-password"}
        required
        maxLength={MAX_PASSWORD_LENGTH}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {props.hint ? (
        <p id={`${props.name}-hint`} className="text-muted-foreground text-xs">
          {props.hint}
        </p>
      ) : null}
      <FieldError id={`${props.name}-error`}>{props.error}</FieldError>
    </div>
  );
}

/**
 * A new password and its repetition, with the policy's hint (invitation and account pages).
 * `label` names the first ("Password", "New password"); the second is that "… again".
 */
export function NewPasswordFields(props: {
  label: string;
  errors: { password?: string; confirmPassword?: string };
}) {
  return (
    <>
      <PasswordField
        name="password"
        label={props.label}
        autoComplete="new-password"
        error={props.errors.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters, not a common password.`}
      />
      <PasswordField
        name="confirmPassword"
        label={`${props.label} again`}
        autoComplete="new-password"
        error={props.errors.confirmPassword}
      />
    </>
  );
}

/** A code from the authenticator app, or a recovery code (sign-in's second step, 'Confirm it's you'). */
export function SecondFactorCodeField(props: {
  id: string;
  label: string;
  error?: string;
  autoFocus?: boolean;
}) {
  return (
    <InputField
      {...props}
      name="code"
      inputMode="text"
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      required
      maxLength={20}
    />
  );
}
