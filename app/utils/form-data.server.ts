import { data } from "react-router";

export const FORM_UNREADABLE = "The form could not be read.";

/**
 * The posted form. A body that is not a readable form (a broken multipart, a cut-off upload) is
 * the client's mistake: a 400 thrown as a route error response, never a 500 with a logged stack.
 * Content types other than forms never get here (the server answers them 415, decision 015).
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(FORM_UNREADABLE, { status: 400 });
  }
}
