/**
 * Whether the document's first hydration is still under way in this browser: only then is there
 * server markup that a component may leave for later (`ProductCardCell`). The root layout marks it
 * done once that hydration is committed; on the server it is never under way.
 */
let underWay = typeof document !== "undefined";

export function firstHydrationUnderWay() {
  return underWay;
}

export function markDocumentHydrated() {
  underWay = false;
}
