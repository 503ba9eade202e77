import { useEffect, useState } from "react";
import { Icon } from "#app/components/ui/icon.tsx";
import { FieldError } from "#app/components/ui/input.tsx";
import { ID_IMAGE_ACCEPT, ID_IMAGE_HINT } from "#app/features/media/id-image.ts";
import { idOnFileText, KEEP_ID_FIELD } from "#app/features/media/id-on-file.ts";
import { cn } from "#app/utils/cn.ts";
import type { CheckoutFields } from "./checkout-fields.ts";
import { CheckoutSection } from "./checkout-section.tsx";

/** Step 4: the photo of the front of the shopper's ID, with a preview of the one picked. */
export function IdPhotoStep({
  fields,
  idFile,
  keptPhotoName,
  onFileChange,
  signedIn = false,
  idOnFileExpires = null,
}: {
  /** A signed-in customer may keep the photo on file for next time (record 058). */
  signedIn?: boolean;
  /** Their verified, unexpired ID on file: shown instead of the upload. */
  idOnFileExpires?: string | null;
  fields: CheckoutFields;
  idFile: File | null;
  /** The name of the photo sent ahead on an earlier visit, when the form was resumed with it. */
  keptPhotoName: string | null;
  /** Called with the picked file; returns true when it was taken (false clears the input). */
  onFileChange: (file: File | null) => boolean;
}) {
  const { fieldProps, errors, idOf, errorIdOf } = fields;
  const preview = usePreviewUrl(idFile);
  const kept = !idFile && keptPhotoName !== null;
  if (idOnFileExpires) {
    return (
      <CheckoutSection icon={<Icon name="id-card" />} title="ID verification" step={4}>
        <p className="flex min-h-11 items-center gap-2 rounded-lg bg-secondary px-4 py-3 font-semibold">
          <Icon name="circle-check" className="size-5 shrink-0 text-success" />
          {idOnFileText(idOnFileExpires)}
        </p>
        <p className="mt-2 text-sm text-muted-foreground">
          We use the ID photo you gave us before. Our driver checks your ID again at the door.
        </p>
      </CheckoutSection>
    );
  }
  return (
    <CheckoutSection icon={<Icon name="id-card" />} title="ID verification" step={4}>
      <p className="text-sm text-muted-foreground">
        Upload a clear photo of the front of your government-issued ID. We check it again in person at
        delivery.
      </p>
      <label
        htmlFor={idOf("idFront")}
        className={cn(
          "mt-3 flex min-h-28 cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-5 text-center transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring",
          errors.idFront ? "border-destructive" : "border-input hover:bg-muted",
        )}
      >
        {preview ? (
          <img src={preview} alt="Preview of your ID" className="max-h-32 rounded-md object-contain" />
        ) : kept ? (
          <Icon name="circle-check" className="size-6 text-success" />
        ) : (
          <Icon name="upload" className="size-6 text-muted-foreground" />
        )}
        <span className="font-semibold">
          {idFile ? idFile.name : kept ? `ID photo attached: ${keptPhotoName}` : "Upload front of ID"}
        </span>
        <span className="text-sm text-muted-foreground">
          {idFile
            ? "Tap to choose another photo"
            : kept
              ? "Sent earlier from this device. Tap to choose another photo"
              : ID_IMAGE_HINT}
        </span>
        <input
          {...fieldProps("idFront")}
          type="file"
          accept={ID_IMAGE_ACCEPT}
          required={!kept}
          className="sr-only"
          onChange={(event) => {
            const taken = onFileChange(event.target.files?.[0] ?? null);
            if (!taken) event.target.value = "";
          }}
        />
      </label>
      <FieldError id={errorIdOf("idFront")}>{errors.idFront}</FieldError>
      {signedIn ? (
        <label className="mt-3 flex min-h-11 cursor-pointer items-center gap-3 text-sm">
          <input type="checkbox" name={KEEP_ID_FIELD} className="size-5 accent-primary" />
          Keep my ID on file for next time
        </label>
      ) : null}
    </CheckoutSection>
  );
}

function usePreviewUrl(file: File | null) {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return preview;
}
