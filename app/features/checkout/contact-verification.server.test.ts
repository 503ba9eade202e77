import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { emailOutbox, orders } from "#app/db/schema.ts";
import { budgetUsed } from "#app/features/abuse/rate-limits.server.ts";
import { setOrderStatus } from "#app/features/orders/admin-orders.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { answered } from "#tests/support/checkout-posts.server.ts";
import {
  checkoutRequest,
  insertTestProduct,
  MONDAY_MORNING,
  newShopper,
  oneOf,
  orderFields,
  placedOrderRow,
  testIdPhoto,
  undecodablePhoto,
} from "#tests/support/checkout-test-helpers.server.ts";
import { submitCheckout } from "./checkout.server.ts";
import { rememberVerified, saveVerificationMode } from "./contact-verification.server.ts";

async function post(
  fields: Record<string, string>,
  options: { clientAddress: string; file?: "good" | "bad" | null; cookieHeader?: string | null },
) {
  const file =
    options.file === null ? null : options.file === "bad" ? undecodablePhoto() : await testIdPhoto();
  return answered(
    await submitCheckout(checkoutRequest(fields, file), {
      clientAddress: options.clientAddress,
      now: MONDAY_MORNING,
      cookieHeader: options.cookieHeader ?? null,
    }),
  );
}

describeEachDatabase("checkout: the code before an order", (database) => {
  /** The newest code e-mailed to `email`, read from the outbox as the shopper reads their mail. */
  async function codeSentTo(email: string, notBefore: string[] = []) {
    const rows = await database()
      .db.select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.kind, "checkout-code")));
    const fresh = rows
      .map((row) => ({ row, code: /your code is (\d{6})/.exec(row.textBody)?.[1] }))
      .filter((sent) => sent.code && !notBefore.includes(sent.code));
    const last = fresh.at(-1);
    if (fresh.length !== 1 || !last?.code) throw new Error(`not one new code for ${email}`);
    return { code: last.code, row: last.row };
  }

  it("with 'every order' on, refuses a wrong code and places the order with the right one", async () => {
    await saveVerificationMode("every-order");
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const { clientAddress } = newShopper();
    const fields = orderFields(oneOf(product));

    // The first post gets a code, and its photo is not read (an undecodable one is not refused).
    const first = await post(fields, { clientAddress, file: "bad" });
    expect(first).toMatchObject({
      ok: false,
      status: 403,
      refusal: { kind: "code-sent", channel: "email" },
      toast: {
        title: "Check your email",
        description: `We emailed a 6-digit code to ${fields.email}. Enter it to place your order.`,
      },
    });
    expect(await budgetUsed("idPhotoUpload", clientAddress)).toBe(0);
    const { code, row } = await codeSentTo(fields.email as string);
    expect(row).toMatchObject({
      channel: "email",
      status: "queued",
      subject: `Capital Grown: your code is ${code}`,
    });

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const refused = await post({ ...fields, codeStep: "1", verificationCode: wrong }, { clientAddress });
    expect(refused).toMatchObject({
      ok: false,
      status: 403,
      fieldErrors: { verificationCode: "That code is not right. 4 tries left." },
    });
    const none = await database()
      .db.select()
      .from(orders)
      .where(eq(orders.userEmail, fields.email as string));
    expect(none).toEqual([]);

    const placed = await post({ ...fields, codeStep: "1", verificationCode: code }, { clientAddress });
    expect(placed).toMatchObject({ ok: true, replayed: false, verifiedContact: fields.email });

    // Another device needs a code for that contact's next order; the device that entered it does not.
    const elsewhere = await post({ ...fields, idempotencyKey: crypto.randomUUID() }, { clientAddress });
    expect(elsewhere).toMatchObject({ ok: false, refusal: { kind: "code-sent" } });
    if (!placed.ok || !placed.verifiedContact) throw new Error("not placed");
    const cookie = (await rememberVerified(null, placed.verifiedContact, MONDAY_MORNING)).split(";")[0] ?? "";
    const again = await post(
      { ...fields, idempotencyKey: crypto.randomUUID() },
      { clientAddress, cookieHeader: cookie },
    );
    expect(again).toMatchObject({ ok: true, replayed: false });
  });

  it("takes 5 tries of a code, then asks for a new one", async () => {
    await saveVerificationMode("every-order");
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const { clientAddress } = newShopper();
    const fields = orderFields(oneOf(product));
    await post(fields, { clientAddress });
    const { code } = await codeSentTo(fields.email as string);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, "0");
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await post({ ...fields, codeStep: "1", verificationCode: wrong }, { clientAddress });
      messages.push(result.ok ? "placed" : (result.fieldErrors.verificationCode ?? ""));
    }
    expect(messages).toEqual([
      "That code is not right. 4 tries left.",
      "That code is not right. 3 tries left.",
      "That code is not right. 2 tries left.",
      "That code is not right. 1 try left.",
      "That code was tried too many times. Ask for a new one.",
    ]);
    const late = await post({ ...fields, codeStep: "1", verificationCode: code }, { clientAddress });
    expect(late).toMatchObject({
      ok: false,
      fieldErrors: { verificationCode: "That code was tried too many times. Ask for a new one." },
    });

    // A new code works.
    await post({ ...fields, resendCode: "1" }, { clientAddress });
    const fresh = await codeSentTo(fields.email as string, [code]);
    expect(
      await post({ ...fields, codeStep: "1", verificationCode: fresh.code }, { clientAddress }),
    ).toMatchObject({
      ok: true,
    });
  });

  it("sends at most CONTACT_CODES_PER_HOUR codes to one client address in an hour", async () => {
    await saveVerificationMode("every-order");
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    const { clientAddress } = newShopper();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const result = await post(orderFields(oneOf(product)), { clientAddress });
      answers.push(result.ok ? 200 : result.status);
    }
    expect(answers).toEqual([403, 403, 403, 403, 403, 429]);
  });

  it("with 'new customers', asks only a phone that has had no order delivered; off asks no one", async () => {
    const product = await insertTestProduct(database().db, { priceCents: 9000 });
    await saveVerificationMode("off");
    const known = orderFields(oneOf(product));
    const { clientAddress } = newShopper();
    const first = await post(known, { clientAddress });
    if (!first.ok) throw new Error("not placed");
    const order = await placedOrderRow(first.token);
    await setOrderStatus(order.id, "confirmed");
    await setOrderStatus(order.id, "out_for_delivery");
    await setOrderStatus(order.id, "delivered");

    await saveVerificationMode("new-customers");
    const returning = await post({ ...known, idempotencyKey: crypto.randomUUID() }, { clientAddress });
    expect(returning).toMatchObject({ ok: true });
    const stranger = await post(orderFields(oneOf(product)), { clientAddress });
    expect(stranger).toMatchObject({ ok: false, refusal: { kind: "code-sent" } });
    await saveVerificationMode("off");
  });
});
