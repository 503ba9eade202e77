import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * `shouldRevalidate` of the routes on the checkout page (root, store layout, checkout). After the
 * page's post placed the order, the page leaves for /thank-you at once: running its loaders again
 * first was a request per order that no shopper saw (record 023). Every other case is React
 * Router's own rule. No imports beyond types: the root route's chunk stays as small as it was.
 */
export function skipAfterPlacedOrder({
  formAction,
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const placed = (actionResult as { ok?: unknown; token?: unknown } | undefined) ?? {};
  if (formAction === "/checkout" && placed.ok === true && typeof placed.token === "string") return false;
  return defaultShouldRevalidate;
}
