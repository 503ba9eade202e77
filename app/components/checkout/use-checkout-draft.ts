import { useCallback, useEffect, useRef, useState } from "react";
import {
  CHECKOUT_DRAFT_STORAGE_KEY,
  type CheckoutDraft,
  isDraftEmpty,
  parseCheckoutDraft,
} from "#app/features/checkout/checkout-draft.ts";

function readStorage(): string | null {
  try {
    return window.localStorage.getItem(CHECKOUT_DRAFT_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeStorage(draft: CheckoutDraft | null) {
  try {
    if (draft === null || isDraftEmpty(draft)) window.localStorage.removeItem(CHECKOUT_DRAFT_STORAGE_KEY);
    else window.localStorage.setItem(CHECKOUT_DRAFT_STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Private mode or a full storage: the form still works, it is only not kept.
  }
}

/**
 * The checkout's kept draft: read once when the form mounts (the form renders in the browser only,
 * after the cart is restored), saved whenever `current` changes, removed by `forget`.
 */
export function useCheckoutDraft() {
  const [initial] = useState(() => parseCheckoutDraft(readStorage(), Date.now()));
  const forgotten = useRef(false);

  const save = useCallback((draft: CheckoutDraft) => {
    if (forgotten.current) return;
    writeStorage(draft);
  }, []);

  /** Drops the stored draft; `keepForgetting` stops later saves (the order is placed, the page leaves). */
  const forget = useCallback((keepForgetting = false) => {
    forgotten.current = keepForgetting;
    writeStorage(null);
  }, []);

  return { initial, save, forget };
}

/** Saves `draft` whenever it changes. */
export function useSaveDraft(draft: CheckoutDraft, save: (draft: CheckoutDraft) => void) {
  const serialized = JSON.stringify(draft);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the serialized draft stands for the draft
  useEffect(() => save(draft), [serialized, save]);
}
