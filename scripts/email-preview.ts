/**
 * `npm run email:preview -- [folder]`: writes every e-mail of the shop, rendered with sample data
 * and the store's identity from the configuration, as `<name>.html` and `<name>.txt` (subject on the
 * first line) into the folder, or into a new temporary folder. Open the .html files in a browser.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runnerImport } from "vite";

type Previews = typeof import("../app/demo/email-previews.server.ts");
type Outbox = typeof import("../app/features/email/email-outbox.server.ts");

const root = path.resolve(import.meta.dirname, "..");
// The e-mails are React components (.tsx): Vite's module runner loads them as the app's build does.
const inline = { configFile: false as const, root, logLevel: "error" as const };
const [{ module: previews }, { module: outbox }] = await Promise.all([
  runnerImport<Previews>(path.join(root, "app/demo/email-previews.server.ts"), inline),
  runnerImport<Outbox>(path.join(root, "app/features/email/email-outbox.server.ts"), inline),
]);

const requested = process.argv[2];
const folder = requested ? path.resolve(requested) : mkdtempSync(path.join(tmpdir(), "cg-email-preview-"));
mkdirSync(folder, { recursive: true });
const store = outbox.storeEmailSettings();
for (const preview of previews.EMAIL_PREVIEWS) {
  const mail = await preview.render(store);
  writeFileSync(path.join(folder, `${preview.name}.html`), mail.html);
  writeFileSync(path.join(folder, `${preview.name}.txt`), `Subject: ${mail.subject}\n\n${mail.text}\n`);
  console.log(`${preview.name}: ${mail.subject}`);
}
console.log(`Wrote ${previews.EMAIL_PREVIEWS.length * 2} files to ${folder}`);
