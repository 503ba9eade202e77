import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { and, eq, isNull } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  auditEvents,
  customerPasskeys,
  customerSessions,
  customerSignInCodes,
  customers,
  emailOutbox,
  orderItems,
  orders,
  productSizes,
} from "#app/db/schema.ts";
import {
  SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_ATTEMPTS_PER_ADDRESS,
} from "#app/features/abuse/rate-limits.server.ts";
import { config } from "#app/utils/env.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { insertTestProduct } from "#tests/support/checkout-test-helpers.server.ts";
import { expectOrderAnonymised, insertIdPhotoRow, wrongCodeFor } from "#tests/support/customer-accounts.ts";
import { insertOrderRow } from "#tests/support/order-rows.ts";
import {
  accountOrders,
  customerDataExport,
  deleteCustomerAccount,
  orderAgain,
  saveAddress,
  savedAddresses,
} from "./account.server.ts";
import { endCustomerSessions, findCustomerSession } from "./customer-sessions.server.ts";
import {
  authenticationOptions,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from "./passkeys.server.ts";
import { checkSignInCode, MAX_CODE_TRIES, requestSignInCode } from "./sign-in.server.ts";

const ORIGIN = { ipAddress: "10.9.0.1", requestId: null };
let addressCount = 0;
/** A client address of its own per test: the per-address budgets are shared by the whole suite. */
const nextAddress = () => `10.20.${Math.floor(++addressCount / 200)}.${addressCount % 200}`;

describeEachDatabase("customer accounts", (database) => {
  async function codeMailedTo(email: string) {
    const rows = await database()
      .db.select({ text: emailOutbox.textBody, kind: emailOutbox.kind })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, email));
    const last = rows.filter((row) => row.kind === "customer-sign-in-code").at(-1);
    const code = /\b(\d{6})\b/.exec(last?.text ?? "")?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }

  async function signInAs(email: string, ipAddress = nextAddress()) {
    expect(await requestSignInCode({ email, ipAddress })).toEqual({ ok: true });
    const result = await checkSignInCode({ email, code: await codeMailedTo(email), ipAddress });
    if (!result.ok) throw new Error(`sign-in failed: ${result.reason}`);
    return result;
  }

  it("signs in with the e-mailed code once, keeping only its hash, and refuses a wrong one with the tries left", async () => {
    const { db } = database();
    const email = `code-${randomUUID().slice(0, 8)}@example.com`;
    const ipAddress = nextAddress();
    await requestSignInCode({ email, ipAddress });
    const code = await codeMailedTo(email);
    const [stored] = await db.select().from(customerSignInCodes).where(eq(customerSignInCodes.email, email));
    expect(JSON.stringify(stored)).not.toContain(code);

    expect(await checkSignInCode({ email, code: wrongCodeFor(code), ipAddress })).toEqual({
      ok: false,
      reason: "wrong",
      attemptsLeft: MAX_CODE_TRIES - 1,
    });
    const right = await checkSignInCode({ email, code, ipAddress });
    expect(right.ok).toBe(true);
    if (!right.ok) return;
    expect(right.created).toBe(true);
    const session = await findCustomerSession(db, right.token);
    expect(session?.email).toBe(email);
    const [sessionRow] = await db
      .select()
      .from(customerSessions)
      .where(eq(customerSessions.customerId, right.customerId));
    expect(JSON.stringify(sessionRow)).not.toContain(right.token);
    // Used once: the same code does not sign in again.
    expect(await checkSignInCode({ email, code, ipAddress })).toEqual({ ok: false, reason: "expired" });
    // A second sign-in finds the same account.
    const again = await signInAs(email);
    expect(again.customerId).toBe(right.customerId);
    expect(again.created).toBe(false);
    // Revocable: 'Sign out everywhere' ends both sessions.
    expect(await endCustomerSessions(db, right.customerId)).toBe(2);
    expect(await findCustomerSession(db, right.token)).toBeNull();
    expect(await findCustomerSession(db, again.token)).toBeNull();
  });

  it("ends a code after 5 tries, even parallel ones, and a code past 10 minutes", async () => {
    const email = `tries-${randomUUID().slice(0, 8)}@example.com`;
    const ipAddress = nextAddress();
    await requestSignInCode({ email, ipAddress });
    const code = await codeMailedTo(email);
    const wrong = Array.from({ length: 8 }, (_, index) =>
      String((Number(code) + index + 1) % 1_000_000).padStart(6, "0"),
    );
    const answers = await Promise.all(
      wrong.map((guess) => checkSignInCode({ email, code: guess, ipAddress: nextAddress() })),
    );
    expect(answers.filter((answer) => !answer.ok && answer.reason === "wrong")).toHaveLength(
      MAX_CODE_TRIES - 1,
    );
    expect(await checkSignInCode({ email, code, ipAddress })).toEqual({ ok: false, reason: "expired" });

    const late = `late-${randomUUID().slice(0, 8)}@example.com`;
    const sentAt = new Date(Date.now() - 11 * 60_000);
    await requestSignInCode({ email: late, ipAddress, now: sentAt });
    expect(await checkSignInCode({ email: late, code: await codeMailedTo(late), ipAddress })).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("limits codes per client address and per e-mail address from one client, as staff sign-ins", async () => {
    const ipAddress = nextAddress();
    const email = `flood-${randomUUID().slice(0, 8)}@example.com`;
    const forOneEmail = [];
    for (let index = 0; index < SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS + 1; index++) {
      forOneEmail.push(await requestSignInCode({ email, ipAddress }));
    }
    expect(forOneEmail.filter((answer) => answer.ok)).toHaveLength(SIGN_IN_ATTEMPTS_PER_ACCOUNT_AND_ADDRESS);
    expect(forOneEmail.at(-1)?.ok).toBe(false);

    const other = nextAddress();
    const many = await Promise.all(
      Array.from({ length: SIGN_IN_ATTEMPTS_PER_ADDRESS + 5 }, (_, index) =>
        requestSignInCode({
          email: `many-${index}-${randomUUID().slice(0, 6)}@example.com`,
          ipAddress: other,
        }),
      ),
    );
    expect(many.filter((answer) => answer.ok)).toHaveLength(SIGN_IN_ATTEMPTS_PER_ADDRESS);
  });

  it("joins guest orders placed with the e-mail only once it is verified by a code", async () => {
    const { db } = database();
    const email = `guest-${randomUUID().slice(0, 8)}@example.com`;
    const placed = await insertOrderRow(db, {
      customerName: "Gale Guest",
      deliveryDate: "2026-11-20",
      idPhotoId: null,
    });
    await db.update(orders).set({ userEmail: email.toUpperCase() }).where(eq(orders.id, placed.id));

    // Asking for a code proves nothing: the order stays a guest's.
    await requestSignInCode({ email, ipAddress: nextAddress() });
    const [before] = await db
      .select({ customerId: orders.customerId })
      .from(orders)
      .where(eq(orders.id, placed.id));
    expect(before?.customerId).toBeNull();
    // A wrong code neither.
    await checkSignInCode({
      email,
      code: "999999" === (await codeMailedTo(email)) ? "999998" : "999999",
      ipAddress: nextAddress(),
    });
    const [stillBefore] = await db
      .select({ customerId: orders.customerId })
      .from(orders)
      .where(eq(orders.id, placed.id));
    expect(stillBefore?.customerId).toBeNull();

    const signedIn = await signInAs(email);
    expect(signedIn.joinedOrders).toBe(1);
    const listed = await accountOrders({ customerId: signedIn.customerId });
    expect(listed.orders.map((order) => order.id)).toEqual([placed.id]);
    expect(listed.orders[0]?.timeline[0]?.status).toBe("pending");

    // A guest order placed later with the verified address joins at the next sign-in: reading the
    // account writes nothing.
    const later = await insertOrderRow(db, {
      customerName: "Gale Guest",
      deliveryDate: "2026-11-21",
      idPhotoId: null,
    });
    await db.update(orders).set({ userEmail: email }).where(eq(orders.id, later.id));
    const reread = await accountOrders({ customerId: signedIn.customerId });
    expect(reread.orders.map((order) => order.id)).toEqual([placed.id]);
    const [unjoined] = await db
      .select({ customerId: orders.customerId })
      .from(orders)
      .where(eq(orders.id, later.id));
    expect(unjoined?.customerId).toBeNull();
    expect((await signInAs(email)).joinedOrders).toBe(1);
    const relisted = await accountOrders({ customerId: signedIn.customerId });
    expect(relisted.orders.map((order) => order.id).sort()).toEqual([placed.id, later.id].sort());

    // Someone else's orders never show.
    const otherEmail = `other-${randomUUID().slice(0, 8)}@example.com`;
    const other = await signInAs(otherEmail);
    expect((await accountOrders({ customerId: other.customerId })).orders).toEqual([]);
  });

  it("'Order again' adds what is still sold at today's prices and names what is not", async () => {
    const { db } = database();
    const kept = await insertTestProduct(db, {
      name: `Again Kept ${randomUUID().slice(0, 6)}`,
      priceCents: 3000,
      inventoryCount: 2,
    });
    const gone = await insertTestProduct(db, {
      name: `Again Gone ${randomUUID().slice(0, 6)}`,
      priceCents: 2000,
    });
    const email = `again-${randomUUID().slice(0, 8)}@example.com`;
    const signedIn = await signInAs(email);
    const placed = await insertOrderRow(db, {
      customerName: "Ada Again",
      deliveryDate: "2026-11-20",
      idPhotoId: null,
    });
    await db.update(orders).set({ customerId: signedIn.customerId }).where(eq(orders.id, placed.id));
    await db.insert(orderItems).values([
      {
        orderId: placed.id,
        productId: kept.productId,
        productSizeId: kept.sizeId,
        productName: kept.name,
        sizeLabel: "3.5g",
        quantity: 3,
        unitPriceCents: 3000,
        totalPriceCents: 9000,
      },
      {
        orderId: placed.id,
        productId: gone.productId,
        productSizeId: gone.sizeId,
        productName: gone.name,
        sizeLabel: "3.5g",
        quantity: 1,
        unitPriceCents: 2000,
        totalPriceCents: 2000,
      },
    ]);
    // Since then: the kept size costs more, the other sold out.
    await db.update(productSizes).set({ priceCents: 3500 }).where(eq(productSizes.id, kept.sizeId));
    await db.update(productSizes).set({ inventoryCount: 0 }).where(eq(productSizes.id, gone.sizeId));

    const result = await orderAgain(signedIn.customerId, placed.id);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]?.item.sizeId).toBe(kept.sizeId);
    expect(result.lines[0]?.item.priceCents).toBe(3500);
    expect(result.lines[0]?.quantity).toBe(2);
    expect(result.reduced).toEqual([`${kept.name} (3.5g): 2 left`]);
    expect(result.unavailable).toEqual([`${gone.name} (3.5g)`]);
    // Another customer's order is not found.
    const other = await signInAs(`again-other-${randomUUID().slice(0, 8)}@example.com`);
    expect((await orderAgain(other.customerId, placed.id)).ok).toBe(false);
  });

  it("saves addresses only where the shop delivers, with exactly one default", async () => {
    const signedIn = await signInAs(`addr-${randomUUID().slice(0, 8)}@example.com`);
    const outside = await saveAddress(signedIn.customerId, {
      street: "1 Far Rd",
      city: "Boston",
      state: "DC",
      zipCode: "02108",
      isDefault: false,
    });
    expect(outside).toEqual({
      ok: false,
      field: "zipCode",
      error: "We don't deliver to 02108 yet. We deliver in Washington DC and Northern Virginia.",
    });
    expect(
      await saveAddress(signedIn.customerId, {
        street: "1 Main St NW",
        city: "Washington",
        state: "DC",
        zipCode: "20001",
        isDefault: false,
      }),
    ).toEqual({ ok: true });
    expect(
      await saveAddress(signedIn.customerId, {
        street: "2 K St NW",
        city: "Washington",
        state: "DC",
        zipCode: "20005",
        isDefault: true,
      }),
    ).toEqual({ ok: true });
    const addresses = await savedAddresses(signedIn.customerId);
    expect(addresses.filter((address) => address.isDefault).map((address) => address.street)).toEqual([
      "2 K St NW",
    ]);
    expect(addresses).toHaveLength(2);
  });

  it("deletes the account keeping its orders without personal data, deleting ID photos, audited; refused while an order is open", async () => {
    const { db } = database();
    const email = `delete-${randomUUID().slice(0, 8)}@example.com`;
    const signedIn = await signInAs(email);
    const photoId = await insertIdPhotoRow(db);
    const done = await insertOrderRow(db, {
      customerName: "Dee Lete",
      deliveryDate: "2026-11-20",
      status: "delivered",
      idPhotoId: photoId,
    });
    const open = await insertOrderRow(db, {
      customerName: "Dee Lete",
      deliveryDate: "2026-11-21",
      status: "pending",
      idPhotoId: null,
    });
    await db
      .update(orders)
      .set({ customerId: signedIn.customerId, userEmail: email })
      .where(eq(orders.id, done.id));
    await db
      .update(orders)
      .set({ customerId: signedIn.customerId, userEmail: email })
      .where(eq(orders.id, open.id));

    const refused = await deleteCustomerAccount(signedIn.customerId, ORIGIN);
    expect(refused.ok).toBe(false);
    await db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, open.id));

    const exported = await customerDataExport({ customerId: signedIn.customerId, email });
    expect(exported?.orders.map((order) => order.id).sort()).toEqual([done.id, open.id].sort());

    expect(await deleteCustomerAccount(signedIn.customerId, ORIGIN)).toEqual({
      ok: true,
      anonymisedOrders: 2,
    });
    const kept = await expectOrderAnonymised(db, done.id, photoId);
    expect(kept).toMatchObject({ totalAmountCents: 4200, status: "delivered" });
    expect(await db.select().from(customers).where(eq(customers.id, signedIn.customerId))).toEqual([]);
    expect(await findCustomerSession(db, signedIn.token)).toBeNull();
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).toEqual([]);
    const events = await db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, signedIn.customerId), eq(auditEvents.action, "customer.deleted")));
    expect(events).toEqual([{ action: "customer.deleted", details: { orders: 2, idPhotos: 1 } }]);
    // The anonymised orders never join anyone again.
    const back = await signInAs(email);
    expect(back.joinedOrders).toBe(0);
    expect(
      await db
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.id, done.id), isNull(orders.customerId))),
    ).toHaveLength(1);
  });

  it("adds a passkey and signs in with it; refuses another origin, a replayed challenge and a counter going back", async () => {
    const { db } = database();
    const email = `passkey-${randomUUID().slice(0, 8)}@example.com`;
    const signedIn = await signInAs(email);
    const session = await findCustomerSession(db, signedIn.token);
    if (!session) throw new Error("no session");
    const authenticator = softwareAuthenticator();

    // A registration made for another site is refused (the challenge is spent either way).
    for (const wrong of [{ origin: "https://evil.example" }, { rpId: "evil.example" }]) {
      const attempt = await registrationOptions(session);
      expect(
        await verifyRegistration(
          session.customerId,
          attempt.token,
          authenticator.create(attempt.options.challenge, wrong),
        ),
      ).toEqual({ ok: false, error: "The passkey answer does not match this shop." });
    }
    const registration = await registrationOptions(session);
    const created = authenticator.create(registration.options.challenge);
    expect(await verifyRegistration(session.customerId, registration.token, created)).toEqual({ ok: true });
    // The challenge was used up.
    expect((await verifyRegistration(session.customerId, registration.token, created)).ok).toBe(false);
    const [stored] = await db
      .select()
      .from(customerPasskeys)
      .where(eq(customerPasskeys.customerId, session.customerId));
    expect(stored?.id).toBe(authenticator.id);
    expect(stored?.transports).toBe("internal");

    // A guest order placed with the account's address meanwhile joins at the passkey's sign-in.
    const guestOrder = await insertOrderRow(db, {
      customerName: "Pat Passkey",
      deliveryDate: "2026-11-22",
      idPhotoId: null,
    });
    await db.update(orders).set({ userEmail: email }).where(eq(orders.id, guestOrder.id));

    const ipAddress = nextAddress();
    const signIn = async (assertion: (challenge: string) => Record<string, unknown>) => {
      const { token, options } = await authenticationOptions();
      return verifyAuthentication({ token, body: assertion(options.challenge), ipAddress });
    };
    const first = await signIn((challenge) => authenticator.get(challenge, { counter: 1 }));
    expect(first.ok).toBe(true);
    if (first.ok)
      expect((await findCustomerSession(db, first.sessionToken))?.customerId).toBe(session.customerId);
    expect((await accountOrders({ customerId: session.customerId })).orders.map((order) => order.id)).toEqual(
      [guestOrder.id],
    );
    expect((await signIn((challenge) => authenticator.get(challenge, { counter: 1 }))).ok).toBe(false);
    expect(
      (
        await signIn((challenge) =>
          authenticator.get(challenge, { counter: 2, origin: "https://evil.example" }),
        )
      ).ok,
    ).toBe(false);
    const forged = softwareAuthenticator(authenticator.id);
    expect((await signIn((challenge) => forged.get(challenge, { counter: 5 }))).ok).toBe(false);
    expect((await signIn((challenge) => authenticator.get(challenge, { counter: 2 }))).ok).toBe(true);
  });
});

/**
 * An ES256 authenticator in software, answering as `@simplewebauthn/browser`'s `startRegistration()`
 * and `startAuthentication()` would (attestation 'none', the key in COSE), posted as the browser posts.
 */
function softwareAuthenticator(id = randomUUID().replaceAll("-", "")) {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const url = new URL(config().publicUrl);
  const rpIdHash = createHash("sha256").update(url.hostname).digest();
  const credentialId = Buffer.from(id, "base64url");
  const clientData = (type: string, challenge: string, origin = url.origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const counterBytes = (counter: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(counter);
    return bytes;
  };
  const jwk = publicKey.export({ format: "jwk" });
  // kty EC2, alg ES256, curve prime256v1, x, y.
  const coseKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? "", "base64url")],
      [-3, Buffer.from(jwk.y ?? "", "base64url")],
    ]),
  );
  const post = (response: object) => ({
    response: JSON.stringify({
      id: credentialId.toString("base64url"),
      rawId: credentialId.toString("base64url"),
      type: "public-key",
      clientExtensionResults: {},
      response,
    }),
  });
  return {
    id: credentialId.toString("base64url"),
    create(challenge: string, options: { origin?: string; rpId?: string } = {}) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const hash = options.rpId ? createHash("sha256").update(options.rpId).digest() : rpIdHash;
      // rpIdHash, flags (UP, UV, AT), counter, AAGUID, credential id length and id, COSE key.
      const authData = Buffer.concat([
        hash,
        Buffer.from([0x45]),
        counterBytes(0),
        Buffer.alloc(16),
        idLength,
        credentialId,
        coseKey,
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ["fmt", "none"],
          ["attStmt", new Map<string, string>()],
          ["authData", authData],
        ]),
      );
      return post({
        clientDataJSON: clientData("webauthn.create", challenge, options.origin).toString("base64url"),
        attestationObject: Buffer.from(attestationObject).toString("base64url"),
        transports: ["internal"],
      });
    },
    get(challenge: string, options: { counter: number; origin?: string }) {
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), counterBytes(options.counter)]);
      const clientDataJSON = clientData("webauthn.get", challenge, options.origin);
      const signature = sign(
        "sha256",
        Buffer.concat([authData, createHash("sha256").update(clientDataJSON).digest()]),
        privateKey,
      );
      return post({
        clientDataJSON: clientDataJSON.toString("base64url"),
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
      });
    },
  };
}
