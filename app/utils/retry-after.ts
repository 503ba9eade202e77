import type { HeadersArgs } from "react-router";

/**
 * For a route's `headers` export: React Router builds a document response's headers only from
 * that function, so without this a refusal's `Retry-After` would be lost on a page load or a
 * form post without JavaScript (P-30: every block carries it).
 */
export function keepRetryAfter(args: HeadersArgs, headers: Record<string, string>): Headers {
  const result = new Headers(headers);
  for (const source of [args.errorHeaders, args.actionHeaders, args.loaderHeaders]) {
    const retryAfter = source?.get("Retry-After");
    if (retryAfter) {
      result.set("Retry-After", retryAfter);
      break;
    }
  }
  return result;
}
