import { data } from "react-router";

export const FORM_UNREADABLE = "The form could not be read.";

/** The 400 message of a form that names one field more than once. */
export function repeatedFieldMessage(name: string) {
  return `The form sent the field “${name.slice(0, 40)}” more than once.`;
}

/**
 * The posted form. A body that is not a readable form (a broken multipart, a cut-off upload) is
 * the client's mistake: a 400 thrown as a route error response, never a 500 with a logged stack.
 * Content types other than forms never get here (the server answers them 415, record 015).
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(FORM_UNREADABLE, { status: 400 });
  }
}

/**
 * The first field `form` names twice, or null when each of its fields appears once; `allowed`
 * names the fields a form may repeat (a list of ticked orders).
 */
export function repeatedField(form: FormData, allowed: readonly string[] = []): string | null {
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (seen.has(name) && !allowed.includes(name)) return name;
    seen.add(name);
  }
  return null;
}

/**
 * The posted form of a form with single-value fields only (every admin and sign-in form): read
 * once, and a 400 when a field comes twice. `form.get` reads the first value and
 * `Object.fromEntries(form)` the last, so a repeated field could mean one thing to a check and
 * another to the work it guards.
 */
export async function readSingleValueForm(request: Request): Promise<FormData> {
  const form = await readFormData(request);
  const repeated = repeatedField(form);
  if (repeated !== null) throw data(repeatedFieldMessage(repeated), { status: 400 });
  return form;
}
