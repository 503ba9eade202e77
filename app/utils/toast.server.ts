import { type Cookie, createCookie, redirect } from "react-router";
import { cookieSecret } from "./cookie-secret.server.ts";
import { config } from "./env.server.ts";
import { type ToastInput, toastSchema } from "./toast.ts";

/** Signed (HMAC-SHA256): a toast the shop did not write, or a mangled one, is ignored. */
export function createToastCookie(options: { secret: string; secure: boolean }) {
  return createCookie("cg_toast", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
    maxAge: 60,
    secrets: [options.secret],
  });
}

let toastCookie: Cookie | undefined;

function cookie() {
  toastCookie ??= createToastCookie({ secret: cookieSecret(), secure: config().secureCookies });
  return toastCookie;
}

export async function toastHeader(toast: ToastInput) {
  return cookie().serialize(JSON.stringify(toastSchema.parse(toast)));
}

/** The path of a redirect's target: the page a toast carried by that redirect belongs to. */
export function pathOf(url: string) {
  return new URL(url, "http://localhost").pathname;
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader({ path: pathOf(url), ...toast }));
  return redirect(url, { ...init, headers });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** Reads the pending toast (if any) and the header that clears it; anything unreadable is no toast. */
export async function readToast(request: Request) {
  const header = request.headers.get("Cookie");
  if (!header?.includes("cg_toast=")) return { toast: null, headers: undefined };
  let raw: unknown = null;
  try {
    raw = await cookie().parse(header);
  } catch {
    // A cookie header the parser cannot read at all.
  }
  const parsed = typeof raw === "string" ? toastSchema.safeParse(parseJson(raw)) : null;
  const clear = await cookie().serialize("", { maxAge: 0 });
  return { toast: parsed?.success ? parsed.data : null, headers: { "Set-Cookie": clear } };
}
