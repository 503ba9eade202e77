import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names. No tailwind-merge (≈ 9 KB of first-load JavaScript): components and their
 * callers never pass two utilities for the same property, and an end-to-end test checks every
 * rendered page for such a conflict (tests/e2e/class-conflicts.spec.ts).
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
