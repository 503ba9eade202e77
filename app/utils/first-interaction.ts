/**
 * Runs `callback` once, on the visitor's first tap, click or key press: the moment to fetch code a
 * page may need soon (the cart panel, the toaster) without adding it to the first load.
 * Returns a function that cancels it.
 */
export function onFirstInteraction(callback: () => void) {
  const run = () => {
    cancel();
    callback();
  };
  const cancel = () => {
    window.removeEventListener("pointerdown", run);
    window.removeEventListener("keydown", run);
  };
  window.addEventListener("pointerdown", run, { passive: true });
  window.addEventListener("keydown", run);
  return cancel;
}
