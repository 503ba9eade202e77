/**
 * What every e-mail of the shop shares (record 021): the layout with the store's identity, a few
 * building blocks, `renderEmail`, which renders one React element to the HTML part and derives the
 * plain-text part from that same HTML, and `emailTemplate` for e-mails sent on every order (rendered
 * once per shape, then filled). Server-only: nothing here reaches the browser bundle.
 *
 * Text from the one source: every element becomes its words in the text part, as html-to-text reads
 * them. Two attributes adjust that where a layout has no text equivalent: `data-skip-in-text`
 * (decoration: the store banner, a heading that repeats the first line) and `data-text-line` (a
 * table row or a button that reads as one line of text, e.g. `2 × Blue Dream (3.5g) — $85.00`).
 */
import { Body, Button, Container, Head, Heading, Html, Section, Text } from "@react-email/components";
import { plainTextSelectors, render } from "@react-email/render";
import { compile, type FormatCallback } from "html-to-text";
import type { CSSProperties, ReactElement, ReactNode } from "react";

/** The store's identity in its e-mails; from the configuration (`storeEmailSettings()`). */
export type StoreEmailSettings = {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  publicUrl: string;
};

export type EmailMessage = { subject: string; text: string; html: string };

export const EMAIL_COLORS = {
  ink: "#1c2420",
  muted: "#5b6660",
  brand: "#143a2b",
  paper: "#fbf9f5",
  line: "#ece3d3",
  faint: "#f6f1e8",
  notice: "#fbefd4",
} as const;

const FONT: CSSProperties = { fontFamily: "Helvetica,Arial,sans-serif", color: EMAIL_COLORS.ink };

const TEXT_LINE = "data-text-line";

/**
 * The page every e-mail sits in: the store's name in a banner, a heading, the content. The banner
 * and the heading are not in the text part unless `headingInText` gives the heading's text line.
 */
export function EmailLayout(props: {
  storeName: string;
  heading: string;
  headingInText?: string;
  children: ReactNode;
}) {
  return (
    <Html lang="en">
      <Head>
        <title>{props.heading}</title>
      </Head>
      <Body style={{ ...FONT, margin: 0, padding: "24px 0", background: EMAIL_COLORS.paper }}>
        <Container
          style={{
            maxWidth: "560px",
            background: "#ffffff",
            border: `1px solid ${EMAIL_COLORS.line}`,
            borderRadius: "12px",
          }}
        >
          <Section
            data-skip-in-text="true"
            style={{
              background: EMAIL_COLORS.brand,
              color: EMAIL_COLORS.paper,
              padding: "20px 24px",
              borderRadius: "12px 12px 0 0",
              fontSize: "20px",
              fontWeight: "bold",
            }}
          >
            {props.storeName}
          </Section>
          <Section style={{ ...FONT, padding: "24px", fontSize: "15px", lineHeight: 1.5 }}>
            <Heading
              as="h1"
              style={{ margin: "0 0 16px", fontSize: "22px" }}
              {...(props.headingInText === undefined
                ? { "data-skip-in-text": "true" }
                : { [TEXT_LINE]: props.headingInText })}
            >
              {props.heading}
            </Heading>
            {props.children}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A paragraph; `<br />` inside it is a line break in both parts. */
export function Paragraph(props: { children: ReactNode; muted?: boolean; skipInText?: boolean }) {
  return (
    <Text
      style={{
        margin: "0 0 16px",
        fontSize: props.muted ? "13px" : "15px",
        lineHeight: 1.5,
        color: props.muted ? EMAIL_COLORS.muted : EMAIL_COLORS.ink,
      }}
      {...(props.skipInText ? { "data-skip-in-text": "true" } : {})}
    >
      {props.children}
    </Text>
  );
}

/** A highlighted box (the cash-on-delivery reminder). */
export function Notice(props: { children: ReactNode }) {
  return (
    <Text
      style={{
        margin: "0 0 8px",
        padding: "12px 16px",
        background: EMAIL_COLORS.notice,
        borderRadius: "8px",
        fontSize: "15px",
        lineHeight: 1.5,
      }}
    >
      {props.children}
    </Text>
  );
}

/** `Label  value` rows; each reads `Label: value` in the text part. */
export function DetailRows(props: { rows: Array<[label: string, value: string]> }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "0 0 16px" }}>
      <tbody>
        {props.rows.map(([label, value]) => (
          <tr key={label} {...{ [TEXT_LINE]: `${label}: ${value}` }}>
            <td style={{ padding: "3px 16px 3px 0", color: EMAIL_COLORS.muted, verticalAlign: "top" }}>
              {label}
            </td>
            <td style={{ padding: "3px 0" }}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export type AmountRow = { label: ReactNode; amount: string; text: string; bold?: boolean };

/** Rows of a description and an amount on the right (order lines, a total), one text line each. */
export function AmountTable(props: { caption?: string; rows: AmountRow[] }) {
  const cell: CSSProperties = { padding: "6px 0", borderBottom: `1px solid ${EMAIL_COLORS.faint}` };
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      style={{ margin: "8px 0 16px", fontSize: "15px" }}
    >
      <tbody>
        {props.caption === undefined ? null : (
          <tr {...{ [TEXT_LINE]: props.caption }}>
            <td colSpan={2} style={{ padding: "0 0 4px", fontWeight: "bold" }}>
              {props.caption}
            </td>
          </tr>
        )}
        {props.rows.map((row, index) => {
          const style = row.bold ? { padding: "8px 0", fontWeight: "bold" } : cell;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed list rendered once
            <tr key={index} {...{ [TEXT_LINE]: row.text }}>
              <td style={style}>{row.label}</td>
              <td align="right" style={{ ...style, whiteSpace: "nowrap" }}>
                {row.amount}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A button to a page of the shop; reads `label: url` in the text part. */
export function ButtonLink(props: { href: string; label: string }) {
  return (
    <Section style={{ margin: "24px 0" }} {...{ [TEXT_LINE]: `${props.label}: ${props.href}` }}>
      <Button
        href={props.href}
        style={{
          display: "inline-block",
          background: EMAIL_COLORS.brand,
          color: EMAIL_COLORS.paper,
          textDecoration: "none",
          padding: "12px 20px",
          borderRadius: "8px",
          fontWeight: "bold",
        }}
      >
        {props.label}
      </Button>
    </Section>
  );
}

/** `data-text-line="…"`: the element is that one line of text (a heading: a paragraph of its own). */
const formatTextLine: FormatCallback = (elem, _walk, builder) => {
  const breaks = /^h[1-6]$/.test(elem.name ?? "") ? 2 : 1;
  builder.openBlock({ leadingLineBreaks: breaks });
  builder.addLiteral(elem.attribs?.[TEXT_LINE] ?? "");
  builder.closeBlock({ trailingLineBreaks: breaks });
};

/**
 * HTML to text as `render(element, { plainText: true })` converts it (the same html-to-text options
 * and selectors), compiled once: converting with uncompiled options costs three times as much,
 * and an order renders two e-mails before its statement (record 021).
 */
const toText = compile({
  wordwrap: false,
  selectors: [...plainTextSelectors, { selector: `[${TEXT_LINE}]`, format: "textLine" }],
  formatters: { textLine: formatTextLine },
});

/** The HTML part and the text part of one e-mail, from one element. */
export async function renderEmail(subject: string, element: ReactElement): Promise<EmailMessage> {
  const html = await render(element);
  const text = toText(html).trim();
  return { subject, html, text };
}

/** What an e-mail shows: strings (already formatted) in objects and lists. */
export type EmailView = string | readonly EmailView[] | { readonly [key: string]: EmailView };

type Part = string | number;
type Template = { subject: Part[]; html: Part[]; text: Part[] };

const SLOT = /\uE000(\d+)\uE001/g;

/** Every string of `view`, in a fixed order (the order `withSlots` numbers them). */
function viewStrings(view: EmailView, out: string[] = []): string[] {
  if (typeof view === "string") out.push(view);
  else if (Array.isArray(view)) for (const item of view as EmailView[]) viewStrings(item, out);
  else for (const value of Object.values(view)) viewStrings(value, out);
  return out;
}

/** The same view with its n-th string replaced by a slot marker. */
function withSlots(view: EmailView, counter = { next: 0 }): EmailView {
  if (typeof view === "string") return `\uE000${counter.next++}\uE001`;
  if (Array.isArray(view)) return (view as EmailView[]).map((item) => withSlots(item, counter));
  return Object.fromEntries(Object.entries(view).map(([key, value]) => [key, withSlots(value, counter)]));
}

function parts(rendered: string): Part[] {
  const result: Part[] = [];
  let last = 0;
  for (const match of rendered.matchAll(SLOT)) {
    result.push(rendered.slice(last, match.index), Number(match[1]));
    last = match.index + match[0].length;
  }
  result.push(rendered.slice(last));
  return result;
}

/** React's escaping of text and attribute values. */
function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) =>
    char === "&"
      ? "&amp;"
      : char === "<"
        ? "&lt;"
        : char === ">"
          ? "&gt;"
          : char === '"'
            ? "&quot;"
            : "&#x27;",
  );
}

function fill(template: Part[], values: string[], encode: (value: string) => string) {
  let out = "";
  for (const part of template) out += typeof part === "number" ? encode(values[part] ?? "") : part;
  return out;
}

const SHAPES_KEPT = 64;

/**
 * An e-mail that is sent often (one per order): rendered with `renderEmail` once per shape of its
 * view (how many order lines, which fields) with a marker in place of every string, then filled
 * with each message's strings, escaped for the HTML part and as they are for the text part
 * (record 021). The component must only place the view's strings, never compute from them.
 */
export function emailTemplate<V extends EmailView>(
  build: (view: V) => { subject: string; element: ReactElement },
) {
  const templates = new Map<string, Promise<Template>>();
  return async (view: V): Promise<EmailMessage> => {
    const shape = JSON.stringify(view, (_key, value) => (typeof value === "string" ? 0 : value));
    let template = templates.get(shape);
    if (!template) {
      if (templates.size >= SHAPES_KEPT) templates.clear();
      const { subject, element } = build(withSlots(view) as V);
      template = renderEmail(subject, element).then((mail) => ({
        subject: parts(mail.subject),
        html: parts(mail.html),
        text: parts(mail.text),
      }));
      templates.set(shape, template);
      template.catch(() => templates.delete(shape));
    }
    const ready = await template;
    const values = viewStrings(view);
    return {
      subject: fill(ready.subject, values, (value) => value),
      html: fill(ready.html, values, escapeHtml),
      text: fill(ready.text, values, (value) => value),
    };
  };
}
