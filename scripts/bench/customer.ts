/**
 * Returning customers' figures (record 053):
 * - `customer-checkout`: orders/s of a signed-in customer's checkout post against a guest's, the same
 *   server, alternating rounds; many accounts in turn, their sessions made by the customers module.
 * - `account`: server CPU per request of `/account` for a customer with 1,000 orders (joined to the
 *   account by the real sign-in, the code read from the mail the server wrote to its outbox folder)
 *   against the guest's order page of the same server.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { customers } from "#app/db/schema.ts";
import { MIN_ORDER_CENTS } from "#app/features/cart/cart.ts";
import { CUSTOMER_COOKIE, createCustomerSession } from "#app/features/customers/customer-sessions.server.ts";
import { availableSlots, deliveryOptions } from "#app/features/delivery/delivery-slots.ts";
import { orderFields } from "#tests/support/checkout-test-helpers.server.ts";
import { orderableAtMinimum } from "#tests/support/shop-orders.ts";
import {
  type BenchServer,
  bodyBytes,
  cpuSeconds,
  createDataSet,
  type DataSet,
  formPoster,
  type LoadResult,
  load,
  median,
  postgresCpuSeconds,
  say,
  sleep,
  startServer,
} from "./lib.ts";

type Row = { figure: string; target: string; value: string; pass: boolean | null; context: string };
type SizeRow = {
  id: string;
  product_id: string;
  price_cents: number;
  sale_price_cents: number | null;
  flower_equivalent_mg: number | null;
};

const CONCURRENCY = 8;
const CUSTOMER_EMAIL = "bench-customer@example.com";
/**
 * Enough accounts for ~400 signed-in orders/s over the warm-up and the rounds at two open orders
 * each (MAX_OPEN_ORDERS): an account at its limit would be refused and count as a failed post.
 */
function signedInAccounts(options: { seconds: number; rounds: number }) {
  return Math.max(4000, Math.ceil((400 * (options.seconds * options.rounds + 2)) / 2));
}

function fmt(value: number, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** The data set's database while its server is stopped (the embedded one is locked while it runs). */
async function withDatabase<T>(data: DataSet, run: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = data.env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: data.env.DATABASE_URL, poolSize: 2 })
    : await openDatabase({
        kind: "pglite",
        dataDir: data.env.DATA_DIR as string,
        lockOwner: "the customer bench",
      });
  try {
    return await run(handle);
  } finally {
    await handle.close();
  }
}

async function beforeServer<T>(data: DataSet, text: string): Promise<T[]> {
  return withDatabase(
    data,
    async (handle) => ((await handle.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows,
  );
}

/**
 * Signed-in customers for the checkout rounds: each may hold MAX_OPEN_ORDERS (2) open orders, as a
 * guest's contact may, so the rounds take turns over many accounts, each with a session made by
 * the customers module (the sign-in's own createCustomerSession; signing thousands in over HTTP
 * would spend the sign-in budgets the bench keeps on).
 */
async function customerSessions(data: DataSet, count: number) {
  return withDatabase(data, (handle) =>
    handle.db.transaction(async (tx) => {
      const now = new Date();
      const rows = await tx
        .insert(customers)
        .values(
          Array.from({ length: count }, (_, i) => ({
            email: `bench-shopper-${i}@example.com`,
            emailVerifiedAt: now,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: customers.id, email: customers.email });
      const sessions: Array<{ email: string; cookie: string }> = [];
      for (const row of rows) {
        const token = await createCustomerSession(tx, row.id, { now });
        sessions.push({ email: row.email, cookie: `${CUSTOMER_COOKIE}=${token}` });
      }
      return sessions;
    }),
  );
}

function engineOf(data: DataSet) {
  return data.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
}

/**
 * The real sign-in over HTTP: ask for a code, read it from the mail in the outbox folder (no
 * SMTP_URL), post it; returns the Cookie header of the customer session.
 */
async function signIn(server: BenchServer, email: string) {
  const post = (fields: Record<string, string>) =>
    fetch(`${server.url}/account/sign-in`, {
      method: "POST",
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
  const asked = await post({ intent: "send", email });
  if (asked.status !== 200) throw new Error(`Asking for a sign-in code answered ${asked.status}`);
  const folder = path.join(server.dataDir, "outbox");
  let code: string | undefined;
  for (let i = 0; i < 200 && !code; i++) {
    await sleep(100);
    let names: string[] = [];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith(".eml"));
    } catch {
      continue;
    }
    for (const name of names) {
      const text = readFileSync(path.join(folder, name), "utf8");
      if (!new RegExp(`^To:.*${email.replace(/[.+]/g, "\\$&")}`, "im").test(text)) continue;
      code = /^Subject:\s*(\d{6}) is your/im.exec(text)?.[1] ?? code;
    }
  }
  if (!code) throw new Error("No sign-in code arrived in the outbox folder");
  const checked = await post({ intent: "check", email, code });
  const cookie = checked.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] as string)
    .find((pair) => pair.startsWith("cg_customer_session=") && pair.length > "cg_customer_session=".length);
  if (checked.status !== 302 || !cookie) throw new Error(`Signing in answered ${checked.status}`);
  return cookie;
}

/**
 * `worker` in CONCURRENCY loops for `seconds`: orders placed per second, and the CPU each placed
 * order cost the server process and, on PostgreSQL, the database's processes.
 */
async function forSeconds(
  seconds: number,
  worker: () => Promise<boolean>,
  cpu: { serverPid: number; postgres: boolean },
) {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const serverBefore = cpuSeconds(cpu.serverPid);
  const postgresBefore = cpu.postgres ? postgresCpuSeconds() : 0;
  let ok = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        if (await worker()) ok++;
        else failed++;
      }
    }),
  );
  const serverMs = ((cpuSeconds(cpu.serverPid) - serverBefore) * 1000) / Math.max(ok, 1);
  const postgresMs = cpu.postgres ? ((postgresCpuSeconds() - postgresBefore) * 1000) / Math.max(ok, 1) : 0;
  return {
    ok,
    failed,
    rate: ok / ((performance.now() - started) / 1000),
    cpuMsPerOrder: serverMs + postgresMs,
    serverMsPerOrder: serverMs,
  };
}

/** A signed-in customer's checkout post ÷ a guest's, one data set (PGlite or PostgreSQL). */
export async function benchCustomerCheckout(
  data: DataSet,
  options: { seconds: number; rounds: number },
): Promise<Row[]> {
  const engine = engineOf(data);
  await beforeServer(data, "UPDATE product_sizes SET inventory_count = 1000000");
  const sizes = (
    await beforeServer<SizeRow>(
      data,
      "SELECT s.id, s.product_id, s.price_cents, s.sale_price_cents, s.flower_equivalent_mg FROM product_sizes s JOIN products p ON p.id = s.product_id WHERE p.archived_at IS NULL ORDER BY s.id",
    )
  ).filter((size) =>
    orderableAtMinimum(size.sale_price_cents ?? size.price_cents, size.flower_equivalent_mg),
  );
  if (sizes.length === 0) throw new Error("no sizes to order");
  const sessions = await customerSessions(data, signedInAccounts(options));
  const server = await startServer(data);
  const poster = formPoster(server.url, CONCURRENCY);
  try {
    const png = await sharp({ create: { width: 480, height: 300, channels: 3, background: "#2f7553" } })
      .png()
      .toBuffer();
    const now = new Date();
    const { defaultDate } = deliveryOptions(now);
    const slot = availableSlots(defaultDate, now)[0] ?? "";
    async function uploadPhoto(): Promise<string> {
      const form = new FormData();
      form.append("idFront", new File([new Uint8Array(png)], "id.png", { type: "image/png" }));
      const response = await fetch(`${server.url}/api/id-photo`, { method: "POST", body: form });
      const body = (await response.json()) as { token?: string };
      if (response.status !== 200 || !body.token)
        throw new Error(`ID photo upload refused (${response.status})`);
      return body.token;
    }
    // Photos sent ahead (untimed), as the checkout page sends them when picked (P-8).
    const tokens: string[] = [];
    async function fillTokens(count: number) {
      let missing = Math.max(0, count - tokens.length);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (missing > 0) {
            missing--;
            tokens.push(await uploadPhoto());
          }
        }),
      );
    }
    let next = 0;
    let nextCustomer = 0;
    let firstRefusal: string | undefined;
    async function postOrder(signedIn: boolean): Promise<boolean> {
      const size = sizes[next++ % sizes.length] as SizeRow;
      const customer = signedIn ? sessions[nextCustomer++ % sessions.length] : undefined;
      const unit = size.sale_price_cents ?? size.price_cents;
      const quantity = Math.min(999, Math.max(1, Math.ceil(MIN_ORDER_CENTS / Math.max(unit, 1))));
      const fields = orderFields(
        [{ productId: size.product_id, sizeId: size.id, quantity }],
        {
          deliveryDate: defaultDate,
          timeSlot: slot,
          _client: "js",
          // The signed-in checkout is prefilled with the account's address.
          ...(customer ? { email: customer.email } : {}),
        },
        now,
      );
      const form = new URLSearchParams({ ...fields, idPhotoToken: tokens.pop() ?? (await uploadPhoto()) });
      for (let attempt = 0; ; attempt++) {
        try {
          const { status, text } = await poster.post(
            "/checkout.data",
            form,
            customer ? { Cookie: customer.cookie } : {},
          );
          const placed = status === 200 && !text.includes("fieldErrors") && text.includes("token");
          if (!placed) firstRefusal ??= `${status}: ${text.replace(/\s+/g, " ").slice(0, 160)}`;
          return placed;
        } catch (error) {
          if (attempt > 0) throw error;
        }
      }
    }
    // The session is recognised: the checkout page is prefilled with the account's address.
    const first = sessions[0];
    const page = first ? await fetch(`${server.url}/checkout`, { headers: { Cookie: first.cookie } }) : null;
    if (!page || !(await page.text()).includes(first?.email ?? "?"))
      throw new Error("The checkout page does not know the signed-in customer");
    if (!(await postOrder(true)) || !(await postOrder(false)))
      throw new Error(`A checkout post was refused (${firstRefusal}): the customer bench cannot run`);

    say(`… signed-in checkout vs guest checkout (${engine})`);
    await fillTokens(400);
    const cpu = { serverPid: server.pid, postgres: engine === "PostgreSQL" };
    const warm = await forSeconds(1, () => postOrder(true), cpu);
    await forSeconds(1, () => postOrder(false), cpu);
    let fastest = Math.max(warm.rate, 50);
    const timed = async (signedIn: boolean) => {
      await fillTokens(Math.ceil(fastest * options.seconds * 2));
      const run = await forSeconds(options.seconds, () => postOrder(signedIn), cpu);
      fastest = Math.max(fastest, run.rate);
      return run;
    };
    const ratios: number[] = [];
    const customer: number[] = [];
    const guest: number[] = [];
    const cpuRatios: number[] = [];
    const serverRatios: number[] = [];
    const customerCpu: number[] = [];
    const guestCpu: number[] = [];
    let refused = 0;
    for (let round = 0; round < options.rounds; round++) {
      let c: Awaited<ReturnType<typeof forSeconds>>;
      let g: Awaited<ReturnType<typeof forSeconds>>;
      if (round % 2 === 0) {
        c = await timed(true);
        g = await timed(false);
      } else {
        g = await timed(false);
        c = await timed(true);
      }
      customer.push(c.rate);
      guest.push(g.rate);
      refused += c.failed + g.failed;
      ratios.push(c.rate / g.rate);
      customerCpu.push(c.cpuMsPerOrder);
      guestCpu.push(g.cpuMsPerOrder);
      cpuRatios.push(c.cpuMsPerOrder / g.cpuMsPerOrder);
      serverRatios.push(c.serverMsPerOrder / g.serverMsPerOrder);
    }
    poster.close();
    await server.stop();
    const [joined] = await beforeServer<{ n: string; theirs: string }>(
      data,
      "SELECT count(*) AS n, count(customer_id) AS theirs FROM orders WHERE user_email LIKE 'bench-shopper-%'",
    );
    const ratio = median(ratios);
    return [
      {
        figure: `Signed-in customer's checkout orders/s ÷ a guest's, ${engine}`,
        target: "≥ 0.9",
        value: fmt(ratio, 3),
        pass: ratio >= 0.9,
        context: `"no more than a guest's" within the noise of alternating rounds: signed in ${fmt(median(customer), 1)} vs guest ${fmt(median(guest), 1)} orders/s at ${CONCURRENCY} concurrent (ID photo sent ahead; ${sessions.length} accounts in turn, sessions made by the customers module), rounds ${ratios.map((x) => fmt(x, 3)).join("/")}; CPU per order (${engine === "PostgreSQL" ? "server and PostgreSQL processes" : "server"}) signed in ${fmt(median(customerCpu))} vs guest ${fmt(median(guestCpu))} ms, ratio ${fmt(median(cpuRatios), 3)} (rounds ${cpuRatios.map((x) => fmt(x, 3)).join("/")}; the server process alone ${serverRatios.map((x) => fmt(x, 3)).join("/")}); ${refused} refused${refused ? ` (first: ${firstRefusal})` : ""}; ${joined?.n ?? "?"} orders placed signed in, ${joined?.theirs ?? "?"} of them with their account from the order's own statement (record 053)`,
      },
    ];
  } finally {
    poster.close();
    await server.stop();
  }
}

/** `/account` of a customer with 1,000 orders ÷ the guest's order page, server CPU per request. */
export async function benchAccount(
  postgresUrl: string | undefined,
  options: { seconds: number; rounds: number },
): Promise<Row[]> {
  const orders = 1000;
  const data = await createDataSet({ count: 60, orders, postgresUrl });
  let server: BenchServer | undefined;
  try {
    const engine = engineOf(data);
    // The seeded guest orders, all placed with the customer's address: the sign-in joins them.
    await beforeServer(data, `UPDATE orders SET user_email = '${CUSTOMER_EMAIL}'`);
    server = await startServer(data);
    const cookie = await signIn(server, CUSTOMER_EMAIL);
    const orderPage = `/order-confirmation?order=${createHash("md5").update("t1").digest("hex")}`;
    const account = await bodyBytes(`${server.url}/account`, { Cookie: cookie });
    const reference = await bodyBytes(`${server.url}${orderPage}`);
    if (account.status !== 200)
      throw new Error(`/account answered ${account.status} with the session cookie`);
    if (reference.status !== 200) throw new Error(`${orderPage} answered ${reference.status}`);
    const running = server;
    const measure = (pagePath: string, headers: Record<string, string>) => () =>
      load(`${running.url}${pagePath}`, {
        seconds: options.seconds,
        connections: 8,
        pid: running.pid,
        headers,
      });
    const runAccount = measure("/account", { Cookie: cookie });
    const runReference = measure(orderPage, {});
    await runAccount();
    await runReference();
    const ratios: number[] = [];
    const accounts: LoadResult[] = [];
    const references: LoadResult[] = [];
    for (let round = 0; round < options.rounds; round++) {
      let a: LoadResult;
      let r: LoadResult;
      if (round % 2 === 0) {
        a = await runAccount();
        r = await runReference();
      } else {
        r = await runReference();
        a = await runAccount();
      }
      accounts.push(a);
      references.push(r);
      ratios.push((a.cpuPerRequestMs as number) / (r.cpuPerRequestMs as number));
    }
    const ratio = median(ratios);
    const errors = [...accounts, ...references].reduce((sum, r) => sum + r.errors, 0);
    return [
      {
        figure: `/account of a customer with 1,000 orders: server CPU per request ÷ the guest's order page, ${engine}`,
        target: "≤ 3",
        value: fmt(ratio),
        pass: ratio <= 3,
        context: `${fmt(median(accounts.map((r) => r.cpuPerRequestMs as number)))} ms vs ${fmt(median(references.map((r) => r.cpuPerRequestMs as number)))} ms CPU per request (${fmt(median(accounts.map((r) => r.rps)), 0)} vs ${fmt(median(references.map((r) => r.rps)), 0)} req/s at 8 connections, ${errors} errors; page ${account.bytes} vs ${reference.bytes} bytes). Target: the account reads the session, its saved addresses and one page of 20 orders with their items and timeline, where the order page reads one order; a cost that grew with the 1,000 orders would show as a ratio far above 3. Rounds ${ratios.map((x) => fmt(x)).join("/")}`,
      },
    ];
  } finally {
    await server?.stop();
    await data.dispose();
  }
}
