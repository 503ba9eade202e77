import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigation, useSubmit } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import {
  Field,
  FieldError,
  Input,
  Label,
  NativeSelect,
  SelectOptions,
  Textarea,
} from "#app/components/ui/input.tsx";
import { Switch } from "#app/components/ui/switch.tsx";
import { CATEGORIES, STRAINS } from "#app/features/catalog/catalog.ts";
import {
  derivedFlowerEquivalent,
  emptySizeRow,
  fieldErrorsOf,
  type ProductFormValues,
  productFormSchema,
} from "#app/features/catalog/product.schema.ts";
import { cn } from "#app/utils/cn.ts";
import { toast } from "#app/utils/toast-client.ts";
import { CsrfInput, useCsrfToken } from "./csrf.tsx";
import { ImageField } from "./image-field.tsx";

/** What the browser sends: the typed values; the server runs the same schema again. */
export function toSchemaInput(values: ProductFormValues) {
  return {
    ...values,
    sizes: values.sizes.map(({ key: _key, ...size }) => size),
  };
}

/**
 * The product form of K-2 with the rules and messages of K-5, for 'Add' and 'Edit'. It never
 * loses work: a save asked for while the image uploads waits for the upload; a refused or failed
 * save comes back to this form with everything typed. Without JavaScript it posts its named fields
 * (the image then comes from a pasted URL).
 */
export function ProductForm({
  initial,
  mode,
  serverErrors,
}: {
  initial: ProductFormValues;
  mode: "create" | "edit";
  serverErrors?: Record<string, string>;
}) {
  const [values, setValues] = useState(initial);
  const latest = useRef(values);
  latest.current = values;
  const [errors, setErrors] = useState<Record<string, string>>(serverErrors ?? {});
  const [uploading, setUploading] = useState(false);
  /** Save was pressed while the image uploaded: save as soon as the upload ends. */
  const [saveQueued, setSaveQueued] = useState(false);
  const submit = useSubmit();
  const csrf = useCsrfToken();
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";

  // The server's answer replaces what the browser found.
  useEffect(() => {
    if (serverErrors) setErrors(serverErrors);
  }, [serverErrors]);

  /** After a change: each error shown goes as soon as its field is right (never a new one appears). */
  function recheck(next: ProductFormValues, changed: string) {
    setErrors((shown) => {
      if (Object.keys(shown).length === 0) return shown;
      const parsed = productFormSchema.safeParse(toSchemaInput(next));
      const found = parsed.success ? {} : fieldErrorsOf(parsed.error);
      const kept: Record<string, string> = {};
      for (const [key, message] of Object.entries(shown)) {
        const now = found[key];
        // A refusal only the server knows (a taken SKU, a failed save) stays until its field changes.
        const serverOnly = serverErrors?.[key] === message && key !== changed && key !== "form";
        if (now) kept[key] = now;
        else if (serverOnly) kept[key] = message;
      }
      return kept;
    });
  }

  // A save the server could not make: said where the button is, and as a toast.
  const formError = serverErrors?.form;
  useEffect(() => {
    if (formError) toast.error("Error", { description: formError });
  }, [formError]);

  function set<K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) {
    const next = { ...values, [key]: value };
    setValues(next);
    recheck(next, key);
  }
  function setSize(index: number, key: keyof ProductFormValues["sizes"][number], value: string) {
    const next = {
      ...values,
      sizes: values.sizes.map((size, i) => (i === index ? { ...size, [key]: value } : size)),
    };
    setValues(next);
    recheck(next, `sizes.${index}.${key}`);
  }

  function save(current: ProductFormValues) {
    const parsed = productFormSchema.safeParse(toSchemaInput(current));
    if (!parsed.success) {
      const found = fieldErrorsOf(parsed.error);
      setErrors(found);
      const first = Object.keys(found)[0];
      document.getElementById(`field-${first}`)?.focus();
      return;
    }
    // The server's answer (its field errors, or a failed save) shows next.
    setErrors({});
    submit({ csrf, payload: JSON.stringify(toSchemaInput(current)) }, { method: "post" });
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    if (uploading) {
      setSaveQueued(true);
      return;
    }
    save(values);
  }

  // The upload ended (its image is in `values` by now, or it failed): the queued save goes ahead.
  useEffect(() => {
    if (!uploading && saveQueued) {
      setSaveQueued(false);
      save(values);
    }
  });

  /** A top-level field's label, error and their ids (`Field`'s props). */
  const fieldOf = (name: TextField, label: string) => ({
    id: `field-${name}`,
    label,
    error: errors[name],
    errorId: `error-${name}`,
  });
  /** A top-level field's control: its id, name, value and change handler, and its error state. */
  const bind = (name: TextField) => ({
    ...fieldProps(name),
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      set(name, e.target.value),
  });

  const fieldProps = (name: string) => ({
    id: `field-${name}`,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `error-${name}` : undefined,
  });

  const sizeField = (
    index: number,
    size: SizeRow,
    field: SizeInputField,
    label: string,
    inputProps: Omit<React.ComponentProps<"input">, "size">,
    className?: string,
  ) => {
    const rowProps = { index, row: size, errors, setSize };
    return <SizeInput {...inputProps} {...rowProps} field={field} label={label} className={className} />;
  };

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-6">
      <CsrfInput />
      <Card className="space-y-5 p-5 sm:p-6">
        <Field {...fieldOf("name", "Product Name")}>
          <Input {...bind("name")} />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field {...fieldOf("category", "Category")}>
            <NativeSelect {...bind("category")}>
              <option value="">Select category</option>
              <SelectOptions values={CATEGORIES} />
            </NativeSelect>
          </Field>
          <Field {...fieldOf("strain", "Strain (optional)")}>
            <NativeSelect {...bind("strain")}>
              <option value="">None</option>
              <SelectOptions values={STRAINS} />
            </NativeSelect>
          </Field>
          <Field {...fieldOf("thcPercentage", "THC Percentage (optional)")}>
            <Input
              {...bind("thcPercentage")}
              type="number"
              inputMode="decimal"
              step="0.1"
              min="0"
              max="100"
            />
          </Field>
          <Field {...fieldOf("thcMg", "THC mg (optional)")}>
            <Input {...bind("thcMg")} type="number" inputMode="decimal" step="0.1" min="0" />
          </Field>
        </div>
        <Field {...fieldOf("description", "Description")}>
          <Textarea {...bind("description")} rows={4} />
        </Field>
      </Card>

      <Card className="space-y-4 p-5 sm:p-6">
        <div className="flex items-center justify-between gap-2">
          <h2 className="font-semibold">Size Options</h2>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => set("sizes", [...values.sizes, emptySizeRow()])}
          >
            <Icon name="plus" /> Add Size
          </Button>
        </div>
        <p className="text-muted-foreground text-sm">
          Flower eq.: the grams of flower one unit counts against the purchase limit. Left blank, a flower or
          pre-roll size written as a weight (3.5g, 1/8 oz) counts that weight; edibles, cartridges and
          concentrates need it (see the equivalences in{" "}
          <Link to="/admin/settings/limits" className="underline">
            Limits
          </Link>
          ).
        </p>
        <FieldError id="error-sizes">{errors.sizes}</FieldError>
        <ol className="space-y-3">
          {values.sizes.map((size, index) => (
            <li key={size.key} className="rounded-lg border border-border bg-background p-3">
              <fieldset className="grid grid-cols-2 items-start gap-3 sm:grid-cols-4">
                <legend className="sr-only">Size {index + 1}</legend>
                {size.id ? <input type="hidden" name={`sizes.${index}.id`} value={size.id} /> : null}
                {sizeField(
                  index,
                  size,
                  "size",
                  "Size",
                  { placeholder: "e.g. 3.5g" },
                  "col-span-2 sm:col-span-1",
                )}
                {sizeField(index, size, "sku", "SKU", {
                  placeholder: size.id ? undefined : "Generated",
                  autoCapitalize: "characters",
                  spellCheck: false,
                })}
                {sizeField(index, size, "price", "Price ($)", MONEY_INPUT)}
                {sizeField(index, size, "salePrice", "Sale Price ($)", {
                  ...MONEY_INPUT,
                  placeholder: "Optional",
                })}
                {size.id ? (
                  <div className="space-y-1">
                    <span className="block font-medium text-sm">In stock</span>
                    <p id={`stock-${index}`} className="flex h-11 items-center font-mono tabular-nums">
                      {size.inventoryCount}
                    </p>
                  </div>
                ) : (
                  sizeField(index, size, "inventoryCount", "Inventory", COUNT_INPUT)
                )}
                <FlowerEquivalentInput
                  index={index}
                  row={size}
                  category={values.category}
                  errors={errors}
                  setSize={setSize}
                />
                {sizeField(index, size, "lowStockThreshold", "Low stock at", COUNT_INPUT)}
                {values.sizes.length > 1 ? (
                  <div className="flex items-end justify-end sm:pt-5">
                    <Button
                      type="button"
                      variant="ghostDestructive"
                      size="icon"
                      aria-label={`Remove size ${size.size || index + 1}`}
                      onClick={() =>
                        set(
                          "sizes",
                          values.sizes.filter((_, i) => i !== index),
                        )
                      }
                    >
                      <Icon name="trash" />
                    </Button>
                  </div>
                ) : null}
                {size.id ? (
                  <StockMoveFields index={index} size={size} errors={errors} setSize={setSize} />
                ) : null}
              </fieldset>
            </li>
          ))}
        </ol>
      </Card>

      <Card className="space-y-5 p-5 sm:p-6">
        <ImageField
          imageUrl={values.imageUrl}
          error={errors.imageUrl}
          onChange={({ imageUrl, imageKey }) => {
            // An upload ends after other fields may have changed: from the latest values.
            const next = { ...latest.current, imageUrl, imageKey };
            setValues(next);
            recheck(next, "imageUrl");
          }}
          onUploadingChange={setUploading}
        />
        <input type="hidden" name="imageUrl" value={values.imageUrl} />
        <input type="hidden" name="imageKey" value={values.imageKey} />
        <input type="hidden" name="version" value={values.version} />
        <div className="space-y-4 border-border border-t pt-5">
          {PLACEMENTS.map((placement) => (
            <SwitchRow
              key={placement.name}
              {...placement}
              checked={values[placement.name]}
              onChange={(checked) => set(placement.name, checked)}
            />
          ))}
        </div>
      </Card>

      {errors.form ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {errors.form}
        </p>
      ) : null}
      {saveQueued ? (
        <p role="status" className="text-muted-foreground text-sm">
          {mode === "create" ? "The product is created" : "The changes are saved"} as soon as the image has
          uploaded.
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link to="/admin/products" className={buttonVariants({ variant: "outline" })}>
          Cancel
        </Link>
        {/* While the image uploads the button reads as disabled, yet a press is kept and saves after. */}
        <Button
          type="submit"
          size="lg"
          disabled={saving}
          aria-disabled={uploading || undefined}
          className={uploading ? "cursor-progress opacity-60" : undefined}
        >
          {uploading ? (
            <>
              <Icon name="loader-circle" className="animate-spin" /> Uploading image…
            </>
          ) : saving ? (
            "Saving..."
          ) : mode === "create" ? (
            "Create Product"
          ) : (
            "Update Product"
          )}
        </Button>
      </div>
    </form>
  );
}

type SizeRow = ProductFormValues["sizes"][number];

/** The form's top-level text fields. */
type TextField = "name" | "category" | "strain" | "thcPercentage" | "thcMg" | "description";

type SizeInputField = Exclude<keyof SizeRow, "key" | "id">;

/** A price in dollars and cents, and a whole count of units (stock, thresholds). */
const MONEY_INPUT = { type: "number", inputMode: "decimal", step: "0.01", min: "0" } as const;
const COUNT_INPUT = { type: "number", inputMode: "numeric", step: "1", min: "0" } as const;

/** One field of a size row: its small label, the input, and the error under it. */
function SizeInput({
  index,
  row,
  field,
  label,
  errors,
  setSize,
  className,
  "aria-describedby": describedBy,
  ...inputProps
}: {
  index: number;
  row: SizeRow;
  field: SizeInputField;
  label: string;
  errors: Record<string, string>;
  setSize: (index: number, key: keyof SizeRow, value: string) => void;
  className?: string;
} & Omit<React.ComponentProps<"input">, "size">) {
  const name = `sizes.${index}.${field}`;
  return (
    <div className={cn("space-y-1", className)}>
      <Label htmlFor={`field-${name}`} small>
        {label}
      </Label>
      <Input
        id={`field-${name}`}
        name={name}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={
          [errors[name] ? `error-${name}` : null, describedBy].filter(Boolean).join(" ") || undefined
        }
        {...inputProps}
        value={row[field]}
        onChange={(e) => setSize(index, field, e.target.value)}
      />
      <FieldError id={`error-${name}`}>{errors[name]}</FieldError>
    </div>
  );
}

/**
 * The size's flower equivalent: left blank, the size's own weight counts for flower and pre-rolls
 * (`3.5g`, `1/8 oz`) and is shown as such; typed, the typed grams count.
 */
function FlowerEquivalentInput({
  index,
  row,
  category,
  errors,
  setSize,
}: {
  index: number;
  row: SizeRow;
  category: string;
  errors: Record<string, string>;
  setSize: (index: number, key: keyof SizeRow, value: string) => void;
}) {
  const derived = derivedFlowerEquivalent(category, row.size);
  const fromSize = derived !== null && row.flowerEquivalent.trim() === "";
  return (
    <div className="space-y-1">
      <SizeInput
        index={index}
        row={row}
        field="flowerEquivalent"
        label="Flower eq. (g)"
        errors={errors}
        setSize={setSize}
        type="number"
        inputMode="decimal"
        step="0.001"
        min="0"
        placeholder={derived ?? "e.g. 3.5"}
        aria-describedby={fromSize ? `from-size-${index}` : undefined}
      />
      {fromSize ? (
        <p id={`from-size-${index}`} className="text-muted-foreground text-xs">
          {derived} g from the size
        </p>
      ) : null}
    </div>
  );
}

/** 'Received +N' and 'Correction ±N' with a note: stock moves, it is never overwritten (record 026). */
function StockMoveFields({
  index,
  size,
  errors,
  setSize,
}: {
  index: number;
  size: SizeRow;
  errors: Record<string, string>;
  setSize: (index: number, key: keyof SizeRow, value: string) => void;
}) {
  const moveProps = { index, row: size, errors, setSize };
  return (
    <div className="col-span-full grid grid-cols-2 gap-3 border-border border-t pt-3 sm:grid-cols-[1fr_1fr_3fr]">
      <SizeInput {...moveProps} {...COUNT_INPUT} field="received" label="Received +N" placeholder="0" />
      <SizeInput
        {...moveProps}
        field="correction"
        label="Correction ±N"
        type="number"
        inputMode="numeric"
        step="1"
        placeholder="0"
      />
      <SizeInput
        {...moveProps}
        field="stockNote"
        label="Note"
        placeholder="e.g. delivery from grower, counted shelf"
        className="col-span-2 sm:col-span-1"
      />
    </div>
  );
}

/** Where the storefront shows the product besides its category (posted as "on" when checked). */
const PLACEMENTS = [
  { name: "isFeatured", label: "Featured Product", hint: "Show this product on the homepage" },
  { name: "isDeal", label: "Deal Product", hint: "Show this product in the deals section" },
] as const;

function SwitchRow({
  name,
  label,
  hint,
  checked,
  onChange,
}: {
  /** Posted as "on" when checked, so a plain post (no JavaScript) keeps the setting. */
  name: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = `field-${name}`;
  return (
    <div className="flex items-center justify-between gap-4">
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-muted-foreground text-sm">
          {hint}
        </p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-hint`} />
      {checked ? <input type="hidden" name={name} value="on" /> : null}
    </div>
  );
}
