/** The ID photo the checkout asks for: its limits and messages, shared by the form and the server. */

/** An ID photo may be at most 10 MB; the server cuts a bigger upload off while streaming. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Image types the ID upload accepts (checked again by content on the server). */
export const ID_IMAGE_ACCEPT = "image/png,image/jpeg,image/gif,image/webp";

/** Hint under the ID upload (K-5). */
export const ID_IMAGE_HINT = "PNG, JPG, GIF up to 10MB";

export const ID_IMAGE_MESSAGES = {
  required: "Upload a photo of the front of your ID",
  type: `Please select an image file (${ID_IMAGE_HINT})`,
  tooLarge: "File too large: please select an image smaller than 10MB.",
  unreadable: "This file is not a readable image. Please upload a PNG, JPG or GIF photo of your ID.",
} as const;

/** What the browser can check about the chosen ID file before sending it. */
export function idFileProblem(file: { size: number; type: string } | null | undefined): string | null {
  if (!file || file.size === 0) return ID_IMAGE_MESSAGES.required;
  if (!file.type.startsWith("image/")) return ID_IMAGE_MESSAGES.type;
  if (file.size > MAX_UPLOAD_BYTES) return ID_IMAGE_MESSAGES.tooLarge;
  return null;
}

/** Long enough to finish a checkout after picking the photo, short enough not to keep strangers' IDs. */
export const UNCLAIMED_PHOTO_HOURS = 6;

/**
 * How long a browser keeps the token of a photo it sent ahead: an hour short of the server's
 * deletion, so a resumed checkout does not name a photo that is about to go.
 */
export const SENT_PHOTO_KEPT_HOURS = UNCLAIMED_PHOTO_HOURS - 1;
