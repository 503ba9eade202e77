import { createCookie, redirect } from "react-router";
import { type ToastInput, toastSchema } from "./toast.ts";

const toastCookie = createCookie("cg_toast", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 60,
});

export async function toastHeader(toast: ToastInput) {
  return toastCookie.serialize(JSON.stringify(toastSchema.parse(toast)));
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast (if any) and the header that clears it. */
export async function readToast(request: Request) {
  const raw = await toastCookie.parse(request.headers.get("Cookie"));
  if (typeof raw !== "string") return { toast: null, headers: undefined };
  const parsed = toastSchema.safeParse(parseJson(raw));
  const clear = await toastCookie.serialize("", { maxAge: 0 });
  return { toast: parsed.success ? parsed.data : null, headers: { "Set-Cookie": clear } };
}

/** A toast cookie someone wrote by hand is ignored (cleared), not a broken page. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
