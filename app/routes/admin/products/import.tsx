import { data, Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "#app/components/admin/csrf.tsx";
import { DataTable } from "#app/components/admin/data-table.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { Field, FieldError } from "#app/components/ui/input.tsx";
import { auditBy } from "#app/features/audit/audit.server.ts";
import { applyImport, type ImportPlan, previewImport } from "#app/features/catalog/catalog-csv.server.ts";
import { CSV_COLUMNS, MAX_CSV_BYTES } from "#app/features/catalog/catalog-csv.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { errorMessage, log } from "#app/utils/logger.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/import";

/** Rows of each list shown on the preview; the counts always cover the whole file. */
const SHOWN_ROWS = 200;

export function meta() {
  return [{ title: "Import Products | Admin" }];
}

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

type ActionData = { error: string; plan: null; csv: null } | { error: null; plan: ImportPlan; csv: string };

export async function action({ context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  const intent = form.get("intent");
  let csv: string;
  if (intent === "import") {
    const text = form.get("csv");
    if (typeof text !== "string" || text.length > MAX_CSV_BYTES) {
      return data<ActionData>(
        { error: "Upload the CSV file again.", plan: null, csv: null },
        { status: 400 },
      );
    }
    csv = text;
    try {
      const result = await applyImport(csv, { actorId: admin.userId, audit: auditBy(admin, context) });
      if (result.ok) {
        return redirectWithToast("/admin/products", {
          type: "success",
          title: "Import finished",
          description: `Imported ${result.products} product${result.products === 1 ? "" : "s"} (${result.rows} row${result.rows === 1 ? "" : "s"}).`,
        });
      }
      // The catalogue changed since the preview: show the new one, nothing written.
      return data<ActionData>({ error: null, plan: result.plan, csv }, { status: 409 });
    } catch (error) {
      log.error("CSV import failed", { error: errorMessage(error) });
      return data<ActionData>(
        { error: "The import failed and nothing was written. Please try again.", plan: null, csv: null },
        { status: 500 },
      );
    }
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) {
    return data<ActionData>(
      { error: "Choose a CSV file to import.", plan: null, csv: null },
      { status: 400 },
    );
  }
  if (file.size > MAX_CSV_BYTES) {
    return data<ActionData>(
      { error: "The CSV file is too large (at most 8 MB).", plan: null, csv: null },
      { status: 413 },
    );
  }
  csv = await file.text();
  const plan = await previewImport(csv);
  if (plan.fileError)
    return data<ActionData>({ error: plan.fileError, plan: null, csv: null }, { status: 400 });
  return data<ActionData>({ error: null, plan, csv });
}

export default function ImportProducts({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const importing = busy && navigation.formData?.get("intent") === "import";
  const plan = actionData?.plan ?? null;
  return (
    <div className="mx-auto max-w-4xl">
      <Link to="/admin/products" className={buttonVariants({ variant: "ghost", className: "-ml-3 mb-2" })}>
        <Icon name="arrow-left" /> Back to Products
      </Link>
      <AdminPageHeader
        title="Import Products"
        description="A CSV file with one row per size, matched to the catalogue by SKU. Nothing is written until you confirm."
      >
        <a href="/admin/products/export" className={buttonVariants({ variant: "outline" })} download>
          <Icon name="download" /> Export CSV
        </a>
      </AdminPageHeader>

      <Card className="space-y-4 p-5 sm:p-6">
        <Form method="post" encType="multipart/form-data" className="space-y-4">
          <CsrfInput />
          <input type="hidden" name="intent" value="preview" />
          <Field id="import-file" label="CSV file">
            <input
              id="import-file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              required
              aria-describedby="import-columns"
              className="block min-h-11 w-full rounded-md border border-input bg-card px-3 py-2 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1.5 file:font-medium"
            />
            <p id="import-columns" className="text-muted-foreground text-sm">
              Columns: {CSV_COLUMNS.join(", ")}. Export the catalogue for a file to start from.
            </p>
          </Field>
          {actionData?.error ? <FieldError>{actionData.error}</FieldError> : null}
          <Button type="submit" variant={plan ? "outline" : "primary"} disabled={busy}>
            {busy && !importing ? "Reading file..." : plan ? "Preview another file" : "Preview import"}
          </Button>
        </Form>
      </Card>

      {plan ? <Preview plan={plan} csv={actionData?.csv ?? ""} importing={importing} busy={busy} /> : null}
    </div>
  );
}

function Preview({
  plan,
  csv,
  importing,
  busy,
}: {
  plan: ImportPlan;
  csv: string;
  importing: boolean;
  busy: boolean;
}) {
  const bad = plan.invalid.length;
  return (
    <section aria-labelledby="preview-title" className="mt-6 space-y-4">
      <h2 id="preview-title" className="font-semibold text-xl">
        Preview: {plan.rows} row{plan.rows === 1 ? "" : "s"}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Count label="To create" value={plan.create.length} />
        <Count label="To update" value={plan.update.length} />
        <Count label="Unchanged" value={plan.unchanged} />
        <Count label="Invalid" value={bad} warn={bad > 0} />
      </dl>

      {bad > 0 ? (
        <Card className="overflow-hidden">
          <div className="border-border border-b bg-destructive/10 px-4 py-3 text-destructive">
            <h3 className="font-semibold">
              {bad} invalid row{bad === 1 ? "" : "s"}: fix {bad === 1 ? "it" : "them"} and upload the file
              again
            </h3>
            <p className="text-sm">Nothing is imported while a row is invalid.</p>
          </div>
          <RowTable
            caption="Invalid rows"
            headings={["Line", "SKU", "Reason"]}
            rows={plan.invalid.map((row) => [String(row.line), row.sku || "—", row.reason])}
          />
        </Card>
      ) : null}

      <RowList title="To create" rows={plan.create} />
      <RowList title="To update" rows={plan.update} />

      {bad === 0 ? (
        <Card className="space-y-3 p-5 sm:p-6">
          {plan.products === 0 ? (
            <p>This file matches the catalogue: there is nothing to import.</p>
          ) : (
            <Form method="post" encType="multipart/form-data" className="space-y-3">
              <CsrfInput />
              <input type="hidden" name="intent" value="import" />
              <input type="hidden" name="csv" value={csv} />
              {importing ? (
                <div className="space-y-1" role="status">
                  <progress className="h-2 w-full accent-primary" aria-label="Import progress" />
                  <p className="text-muted-foreground text-sm">
                    Importing {plan.products} products in one transaction…
                  </p>
                </div>
              ) : null}
              <Button type="submit" size="lg" disabled={busy}>
                {importing
                  ? "Importing..."
                  : `Import ${plan.products} product${plan.products === 1 ? "" : "s"}`}
              </Button>
            </Form>
          )}
        </Card>
      ) : null}
    </section>
  );
}

function Count({ label, value, warn = false }: { label: string; value: number; warn?: boolean }) {
  return (
    <Card className={warn ? "p-4 ring-2 ring-destructive" : "p-4"}>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="font-semibold text-2xl tabular-nums">{value}</dd>
    </Card>
  );
}

function RowList({ title, rows }: { title: string; rows: ImportPlan["create"] }) {
  if (rows.length === 0) return null;
  return (
    <Card className="overflow-hidden">
      <h3 className="border-border border-b bg-muted/60 px-4 py-3 font-semibold">
        {title} ({rows.length})
      </h3>
      <RowTable
        caption={title}
        headings={["Line", "SKU", "Product", "Changes"]}
        rows={rows
          .slice(0, SHOWN_ROWS)
          .map((row) => [String(row.line), row.sku, `${row.name} (${row.size})`, row.changes.join("; ")])}
      />
      {rows.length > SHOWN_ROWS ? (
        <p className="border-border border-t px-4 py-2 text-muted-foreground text-sm">
          and {rows.length - SHOWN_ROWS} more
        </p>
      ) : null}
    </Card>
  );
}

function RowTable({ caption, headings, rows }: { caption: string; headings: string[]; rows: string[][] }) {
  return (
    <div className="overflow-x-auto">
      <DataTable
        caption={caption}
        className="w-full text-left text-sm"
        headClassName="text-muted-foreground"
        rowClassName="border-border border-t align-top"
        columns={headings.map((heading, index) => ({
          header: heading,
          th: "px-4 py-2 font-medium",
          td: index < 2 ? "whitespace-nowrap px-4 py-2 font-mono" : "px-4 py-2",
          cell: (cells: string[]) => cells[index],
        }))}
        rows={rows}
        rowKey={(cells) => `${cells[0]}-${cells[1]}`}
      />
    </div>
  );
}
