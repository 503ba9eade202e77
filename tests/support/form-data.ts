/** A form post's body from its fields, as a browser would build it. */
export function formDataOf(fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}
