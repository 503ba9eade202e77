import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { FieldError, Input, Label } from "#app/components/ui/input.tsx";
import {
  IMAGE_MESSAGES,
  MAX_PRODUCT_IMAGE_BYTES,
  PRODUCT_IMAGE_ACCEPT,
} from "#app/features/catalog/product.schema.ts";
import { toast } from "#app/utils/toast-client.ts";
import { useCsrfToken } from "./csrf.tsx";

export const UPLOAD_IMAGE_URL = "/admin/products/upload-image";

type Uploaded = { imageUrl: string; imageKey: string };

/** Sends the file with XMLHttpRequest, the one browser API that reports upload progress. */
function uploadWithProgress(file: File, csrfToken: string, onProgress: (percent: number) => void) {
  return new Promise<Uploaded>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", UPLOAD_IMAGE_URL);
    xhr.setRequestHeader("X-CSRF-Token", csrfToken);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = xhr.response as (Partial<Uploaded> & { error?: string }) | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.imageUrl && body.imageKey) {
        resolve({ imageUrl: body.imageUrl, imageKey: body.imageKey });
      } else if (xhr.status === 401) {
        reject(new Error("your session has ended; please sign in again"));
      } else {
        reject(new Error(body?.error ?? `the server answered ${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new Error("the connection was lost"));
    const form = new FormData();
    form.append("image", file);
    xhr.send(form);
  });
}

/** Product Image: click-to-upload with progress and preview, or a pasted image URL (K-2, K-5). */
export function ImageField({
  imageUrl,
  onChange,
  onUploadingChange,
  error,
}: {
  imageUrl: string;
  onChange: (value: { imageUrl: string; imageKey: string }) => void;
  /** True from the moment a picked file starts uploading until it is stored or has failed. */
  onUploadingChange?: (uploading: boolean) => void;
  error?: string;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const csrfToken = useCsrfToken();
  const [progress, setProgress] = useState<number | null>(null);
  const [localPreview, setLocalPreview] = useState<string | null>(null);
  const [pasted, setPasted] = useState("");

  useEffect(
    () => () => {
      if (localPreview) URL.revokeObjectURL(localPreview);
    },
    [localPreview],
  );

  async function handleFile(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith("image/")) {
      toast.error(IMAGE_MESSAGES.invalidType.title, { description: IMAGE_MESSAGES.invalidType.description });
      return;
    }
    if (file.size > MAX_PRODUCT_IMAGE_BYTES) {
      toast.error(IMAGE_MESSAGES.tooLarge.title, { description: IMAGE_MESSAGES.tooLarge.description });
      return;
    }
    setLocalPreview(URL.createObjectURL(file));
    setProgress(0);
    onUploadingChange?.(true);
    try {
      const uploaded = await uploadWithProgress(file, csrfToken, setProgress);
      onChange(uploaded);
      toast.success(IMAGE_MESSAGES.uploaded.title, { description: IMAGE_MESSAGES.uploaded.description });
    } catch (uploadError) {
      toast.error(IMAGE_MESSAGES.failedTitle, {
        description: `Failed to upload image: ${uploadError instanceof Error ? uploadError.message : "unknown error"}`,
      });
    } finally {
      onUploadingChange?.(false);
      setProgress(null);
      setLocalPreview(null);
      if (inputRef.current) inputRef.current.value = "";
    }
  }

  const preview = localPreview ?? (imageUrl || null);
  const uploading = progress !== null;

  return (
    <fieldset className="space-y-3">
      <legend className="font-medium text-foreground text-sm">Product Image</legend>
      {preview ? (
        <div className="relative w-fit">
          <img
            src={preview}
            alt="Product preview"
            className="h-48 w-48 rounded-lg border border-border bg-muted object-cover"
          />
          {uploading ? (
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 rounded-lg bg-forest-950/55 text-paper-50">
              <Icon name="loader-circle" className="size-6 animate-spin" />
              <span className="font-medium text-sm">Uploading... {progress}%</span>
            </div>
          ) : (
            <Button
              type="button"
              variant="outline"
              size="iconRound"
              className="absolute -top-3 -right-3 shadow-card"
              onClick={() => onChange({ imageUrl: "", imageKey: "" })}
              aria-label="Remove image"
            >
              <Icon name="x" />
            </Button>
          )}
        </div>
      ) : (
        <label
          htmlFor={id}
          className="flex min-h-40 cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-input border-dashed bg-card px-4 py-8 text-center hover:border-forest-400 hover:bg-secondary focus-within:outline-3 focus-within:outline-ring"
        >
          <Icon name="image-plus" className="size-8 text-forest-500" />
          <span className="font-medium">Click to upload an image</span>
          <span className="text-muted-foreground text-xs">PNG, JPG, GIF or WebP up to 10MB</span>
        </label>
      )}
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={PRODUCT_IMAGE_ACCEPT}
        className="sr-only"
        aria-label="Upload product image"
        onChange={(event) => void handleFile(event.target.files?.[0])}
        disabled={uploading}
      />
      {uploading ? (
        <div
          role="progressbar"
          aria-label="Upload progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress ?? 0}
          className="h-2 w-48 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${progress ?? 0}%` }} />
        </div>
      ) : null}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-url`} muted className="flex items-center gap-1.5">
          <Icon name="link-2" className="size-4" /> Or paste an image URL
        </Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-url`}
            name="imagePasted"
            type="url"
            inputMode="url"
            placeholder="https://…"
            value={pasted}
            onChange={(event) => setPasted(event.target.value)}
          />
          <Button
            type="button"
            variant="outline"
            disabled={!pasted.trim()}
            onClick={() => {
              onChange({ imageUrl: pasted.trim(), imageKey: "" });
              setPasted("");
            }}
          >
            Use URL
          </Button>
        </div>
      </div>
      <FieldError>{error}</FieldError>
    </fieldset>
  );
}
