import { useState } from "react";

/**
 * A settings form's check in the browser before it posts (the server checks again): `errorsOf`
 * reads the form's values and answers the field errors, or null when the form may post. On errors
 * the post is stopped and the first field in error gets the focus.
 */
export function useCheckedSubmit(errorsOf: (form: FormData) => Record<string, string> | null) {
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const found = errorsOf(new FormData(event.currentTarget));
    setErrors(found);
    if (!found) return;
    event.preventDefault();
    event.currentTarget.querySelector<HTMLElement>(`[name="${Object.keys(found)[0]}"]`)?.focus();
  }
  return { errors, onSubmit };
}
