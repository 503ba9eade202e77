/**
 * The signed-in customer of a storefront request (record 053): read from the customer cookie,
 * which only /account and /checkout receive. Account pages redirect signed-out visitors to sign in;
 * a post must carry the session's CSRF token.
 */
import { data, redirect } from "react-router";
import { db } from "#app/db/client.server.ts";
import {
  type CustomerSession,
  findCustomerSession,
  readCustomerToken,
} from "#app/features/customers/customer-sessions.server.ts";
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";

export const SIGN_IN_PATH = "/account/sign-in";

export async function customerOf(request: Request): Promise<CustomerSession | null> {
  const token = readCustomerToken(request);
  if (!token) return null;
  return findCustomerSession(await db(), token);
}

export async function requireCustomer(request: Request): Promise<CustomerSession> {
  const customer = await customerOf(request);
  if (!customer) throw redirect(SIGN_IN_PATH, { headers: PRIVATE_NO_STORE });
  return customer;
}

/** The post's form, once its CSRF token is the session's (403 otherwise). */
export async function customerForm(request: Request, customer: CustomerSession) {
  const form = await request.formData();
  if (form.get("csrf") !== customer.csrfToken) {
    throw data("This form has expired. Reload the page and try again.", {
      status: 403,
      headers: PRIVATE_NO_STORE,
    });
  }
  return form;
}
