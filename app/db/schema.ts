import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";

/** Binary file content (images). Both drivers hand back a Uint8Array. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** 'returning': the driver could not deliver it and brings it back to the store (P-32). */
export const ORDER_STATUSES = [
  "pending",
  "confirmed",
  "out_for_delivery",
  "delivered",
  "cancelled",
  "returning",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /**
     * The product page's address, `/product/{slug}` (record 028): made from the name by the
     * `products_assign_slug` trigger (unique: 'blue-dream', 'blue-dream-2' …) when a row is inserted
     * without one or renamed; the slugs it had before stay in `product_slugs` and redirect.
     */
    slug: text("slug").notNull().default(""),
    description: text("description").notNull().default(""),
    category: text("category").notNull(),
    strain: text("strain"),
    thcPercentage: doublePrecision("thc_percentage"),
    thcMg: doublePrecision("thc_mg"),
    isFeatured: boolean("is_featured").notNull().default(false),
    isDeal: boolean("is_deal").notNull().default(false),
    /** A pasted external URL, or the storefront path of an uploaded image. */
    imageUrl: text("image_url").notNull().default(""),
    /** Set when the image was uploaded: the key of its WebP variants in `media_files`. */
    imageKey: text("image_key"),
    /** Hidden from the shop instead of erased when past orders refer to it (P-15). */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /**
     * Bumped by every edit of the product or its sizes (not by stock movements): an edit form
     * saved over a newer version is refused (record 026).
     */
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("products_slug_idx").on(table.slug),
    index("products_created_at_idx").on(table.createdAt.desc()),
    index("products_category_created_at_idx").on(table.category, table.createdAt.desc()),
    index("products_strain_created_at_idx").on(table.strain, table.createdAt.desc()),
    index("products_featured_created_at_idx").on(table.createdAt.desc()).where(sql`${table.isFeatured}`),
    index("products_deal_created_at_idx").on(table.createdAt.desc()).where(sql`${table.isDeal}`),
    check(
      "products_thc_percentage_range",
      sql`${table.thcPercentage} IS NULL OR (${table.thcPercentage} >= 0 AND ${table.thcPercentage} <= 100)`,
    ),
    check("products_thc_mg_non_negative", sql`${table.thcMg} IS NULL OR ${table.thcMg} >= 0`),
    check("products_slug_format", sql`${table.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);

/** A renamed product's earlier slugs: `/product/{old slug}` answers 301 to the current one. */
export const productSlugs = pgTable(
  "product_slugs",
  {
    slug: text("slug").primaryKey(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_slugs_product_id_idx").on(table.productId)],
);

export const productSizes = pgTable(
  "product_sizes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    size: text("size").notNull(),
    /** Stock-keeping unit: unique, matches CSV import rows to sizes (record 027). */
    sku: text("sku").notNull().default(sql`('CG-' || upper(substr(md5(gen_random_uuid()::text), 1, 10)))`),
    priceCents: integer("price_cents").notNull(),
    salePriceCents: integer("sale_price_cents"),
    inventoryCount: integer("inventory_count").notNull().default(0),
    position: integer("position").notNull().default(0),
    /**
     * What one unit counts against the per-order purchase limit, in milligrams of flower
     * equivalent (P-28). Null only for sizes saved before the limits existed.
     */
    flowerEquivalentMg: integer("flower_equivalent_mg"),
    /** At or below this many units the size is low stock: the dashboard panel and daily digest. */
    lowStockThreshold: integer("low_stock_threshold").notNull().default(5),
  },
  (table) => [
    index("product_sizes_product_id_idx").on(table.productId, table.position),
    uniqueIndex("product_sizes_sku_idx").on(sql`lower(${table.sku})`),
    check("product_sizes_price_non_negative", sql`${table.priceCents} >= 0`),
    check(
      "product_sizes_sale_price_non_negative",
      sql`${table.salePriceCents} IS NULL OR ${table.salePriceCents} >= 0`,
    ),
    check("product_sizes_inventory_non_negative", sql`${table.inventoryCount} >= 0`),
    check("product_sizes_low_stock_threshold_non_negative", sql`${table.lowStockThreshold} >= 0`),
    check(
      "product_sizes_flower_equivalent_non_negative",
      sql`${table.flowerEquivalentMg} IS NULL OR ${table.flowerEquivalentMg} >= 0`,
    ),
  ],
);

/** 'return': an order the driver could not deliver, checked back in at the store (P-32). */
export const STOCK_REASONS = [
  "order",
  "cancel",
  "reopen",
  "received",
  "correction",
  "import",
  "return",
] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/**
 * The stock ledger (record 026): every change of a size's `inventory_count`, written in the same
 * transaction by the SQL that changes it (`place_order`, `change_order_status`, `move_stock`).
 * A size's stock on hand equals the sum of its movements.
 */
export const stockMovements = pgTable(
  "stock_movements",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sizeId: uuid("size_id")
      .notNull()
      .references(() => productSizes.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    reason: text("reason").$type<StockReason>().notNull(),
    /** The admin who did it; null for shoppers' orders and the shop's own jobs. */
    actorId: uuid("actor_id").references(() => adminUsers.id, { onDelete: "set null" }),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("stock_movements_size_id_idx").on(table.sizeId, table.id.desc()),
    index("stock_movements_order_id_idx").on(table.orderId).where(sql`${table.orderId} IS NOT NULL`),
    check(
      "stock_movements_reason_valid",
      sql`${table.reason} IN ('order', 'cancel', 'reopen', 'received', 'correction', 'import', 'return')`,
    ),
    check("stock_movements_delta_non_zero", sql`${table.delta} <> 0`),
  ],
);

export const mediaFiles = pgTable(
  "media_files",
  {
    /** `<image key>-<width>.webp`: content-addressed, so the URL can be cached for a year. */
    path: text("path").primaryKey(),
    imageKey: text("image_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("media_files_image_key_idx").on(table.imageKey)],
);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Unguessable token for the thank-you and confirmation pages (P-11). */
    publicToken: text("public_token").notNull(),
    /** One order per checkout submit (P-10). */
    idempotencyKey: text("idempotency_key").notNull(),
    status: text("status").$type<OrderStatus>().notNull().default("pending"),
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }).notNull().defaultNow(),
    userEmail: text("user_email").notNull(),
    customerName: text("customer_name").notNull(),
    phone: text("phone").notNull(),
    street: text("street").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    deliveryAddress: text("delivery_address").notNull(),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    deliveryTime: text("delivery_time").notNull(),
    totalAmountCents: bigint("total_amount_cents", { mode: "number" }).notNull(),
    notes: text("notes"),
    /** Why a cancelled order was cancelled ('not confirmed in time' when the shop did it itself). */
    cancelReason: text("cancel_reason"),
    idPhotoId: uuid("id_photo_id"),
    /** The first cart item's product, as the first shop's single-product order cards expect. */
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    quantity: integer("quantity").notNull(),
    /** The shopper's 'I'll pay with' amount in cents (P-24), or null: the driver brings change. */
    payWithCents: bigint("pay_with_cents", { mode: "number" }),
    /** The driver the order is assigned to, or null: any driver of the day. */
    driverId: uuid("driver_id").references(() => adminUsers.id, { onDelete: "set null" }),
    /**
     * The customer account the order belongs to (record 053): set when a signed-in customer places
     * it, or when its e-mail address is verified by signing in (a guest order joins then, never
     * before). Null: a guest order, or an account that was deleted.
     */
    customerId: uuid("customer_id").references((): AnyPgColumn => customers.id, { onDelete: "set null" }),
    /** The shopper ticked 'Text me updates' at checkout (P-37): status texts besides the e-mails. */
    smsOptIn: boolean("sms_opt_in").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("orders_public_token_idx").on(table.publicToken),
    index("orders_customer_id_idx")
      .on(table.customerId, table.createdAt.desc(), table.id.desc())
      .where(sql`${table.customerId} IS NOT NULL`),
    uniqueIndex("orders_idempotency_key_idx").on(table.idempotencyKey),
    index("orders_created_at_idx").on(table.createdAt.desc(), table.id.desc()),
    index("orders_status_created_at_idx").on(table.status, table.createdAt.desc(), table.id.desc()),
    // The today board (P-25): a date's orders by slot, first placed first, without scanning others.
    index("orders_delivery_day_slot_idx").on(
      table.deliveryDate,
      table.deliveryTime,
      table.createdAt,
      table.id,
    ),
    // A photo sent ahead is claimed by one order only (P-29).
    uniqueIndex("orders_id_photo_id_idx").on(table.idPhotoId).where(sql`${table.idPhotoId} IS NOT NULL`),
    // Open orders per e-mail address and per phone number (P-29), counted in `place_order`;
    // an order out for delivery is still open (P-23).
    index("orders_open_email_idx")
      .on(sql`lower(${table.userEmail})`)
      .where(sql`${table.status} IN ('pending', 'confirmed', 'out_for_delivery')`),
    index("orders_open_phone_idx")
      .on(sql`regexp_replace(${table.phone}, '\\D', '', 'g')`)
      .where(sql`${table.status} IN ('pending', 'confirmed', 'out_for_delivery')`),
    // Finding orders (record 030): one btree index per kind of search, prefix
    // matches with text_pattern_ops (works on PGlite and PostgreSQL alike; no pg_trgm needed).
    // The order number is an id prefix: a range on the primary key.
    index("orders_search_name_idx").on(sql`lower(${table.customerName}) text_pattern_ops`),
    index("orders_search_last_name_idx").on(
      sql`regexp_replace(lower(${table.customerName}), '^.*\\s', '') text_pattern_ops`,
    ),
    index("orders_search_email_idx").on(sql`lower(${table.userEmail}) text_pattern_ops`),
    index("orders_search_phone_idx").on(sql`regexp_replace(${table.phone}, '\\D', '', 'g') text_pattern_ops`),
    index("orders_search_phone_end_idx").on(
      sql`reverse(regexp_replace(${table.phone}, '\\D', '', 'g')) text_pattern_ops`,
    ),
    index("orders_delivery_date_idx").on(table.deliveryDate, table.createdAt.desc(), table.id.desc()),
    index("orders_retention_idx")
      .on(table.status, table.statusChangedAt)
      .where(sql`${table.idPhotoId} IS NOT NULL`),
    check(
      "orders_status_valid",
      sql`${table.status} IN ('pending', 'confirmed', 'out_for_delivery', 'delivered', 'cancelled', 'returning')`,
    ),
    check("orders_state_valid", sql`${table.state} IN ('DC', 'VA')`),
    check("orders_total_non_negative", sql`${table.totalAmountCents} >= 0`),
    check("orders_quantity_positive", sql`${table.quantity} >= 1`),
    check("orders_pay_with_non_negative", sql`${table.payWithCents} IS NULL OR ${table.payWithCents} >= 0`),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    productSizeId: uuid("product_size_id").references(() => productSizes.id, {
      onDelete: "set null",
    }),
    productName: text("product_name").notNull(),
    sizeLabel: text("size_label").notNull(),
    imageUrl: text("image_url").notNull().default(""),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    totalPriceCents: bigint("total_price_cents", { mode: "number" }).notNull(),
  },
  (table) => [
    index("order_items_order_id_idx").on(table.orderId),
    index("order_items_product_id_idx").on(table.productId),
    index("order_items_product_size_id_idx").on(table.productSizeId),
    check("order_items_quantity_positive", sql`${table.quantity} >= 1`),
    check("order_items_unit_price_non_negative", sql`${table.unitPriceCents} >= 0`),
    check("order_items_total_price_non_negative", sql`${table.totalPriceCents} >= 0`),
  ],
);

/**
 * Every status change of an order, with its time (P-23): the customer's order page shows them
 * as a timeline. Written by `change_order_status` in the same statement as the change; the order's
 * own `created_at` is its 'placed' step.
 */
export const orderStatusEvents = pgTable(
  "order_status_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status").$type<OrderStatus>().notNull(),
    fromStatus: text("from_status").$type<OrderStatus>().notNull(),
    cancelReason: text("cancel_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_status_events_order_id_idx").on(table.orderId, table.id)],
);

/**
 * Customer ID photos: private, never under a public URL (P-6), encrypted at rest with
 * AES-256-GCM: `bytes` holds the ciphertext followed by the tag, `nonce` is random per photo and
 * `keyId` names the key in `encryption_keys` (null only for photos stored before encryption).
 */
export const idPhotos = pgTable("id_photos", {
  id: uuid("id").primaryKey().defaultRandom(),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  keyId: text("key_id"),
  nonce: bytea("nonce"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The keys ID photos were encrypted with, by id, each with a check value computed from the key,
 * so an instance started with another key refuses to start instead of writing unreadable photos.
 * The keys themselves are never stored here.
 */
export const encryptionKeys = pgTable("encryption_keys", {
  keyId: text("key_id").primaryKey(),
  checkValue: text("check_value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});

/** Shop settings an owner changes at run time (purchase limits, …): one JSON value per key. */
export const storeSettings = pgTable("store_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Counters of `rate-limiter-flexible`'s PostgreSQL store (P-30), shared by every instance;
 * the table is the library's own layout, created here instead of by the library.
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/** Running totals kept in the order transaction so the dashboard never scans every order. */
export const orderDailyStats = pgTable("order_daily_stats", {
  day: date("day", { mode: "string" }).primaryKey(),
  ordersCount: integer("orders_count").notNull().default(0),
  revenueCents: bigint("revenue_cents", { mode: "number" }).notNull().default(0),
});

export const orderStatusCounts = pgTable("order_status_counts", {
  status: text("status").$type<OrderStatus>().primaryKey(),
  ordersCount: integer("orders_count").notNull().default(0),
});

/**
 * The sum of delivered orders' totals: the dashboard's revenue (record 048). One row, kept by
 * triggers on orders (drizzle/0021), summed again from the orders by a restore.
 */
export const deliveredRevenue = pgTable(
  "delivered_revenue",
  {
    id: smallint("id").primaryKey().default(1),
    totalCents: bigint("total_cents", { mode: "number" }).notNull().default(0),
  },
  (table) => [check("delivered_revenue_one_row", sql`${table.id} = 1`)],
);

/** Staff roles (P-26); the permissions of each live in features/staff/permissions.ts. */
export const STAFF_ROLES = ["owner", "manager", "driver"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const adminUsers = pgTable(
  "admin_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").$type<StaffRole>().notNull().default("owner"),
    /** Shown to customers as 'Your driver is {first name}'. */
    firstName: text("first_name").notNull().default(""),
    /** Set when an owner deactivates the account: no sign-in, every session ended. */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /** The TOTP secret (base32), sealed with the ID-photo key ring like other secrets at rest. */
    totpSecretSealed: bytea("totp_secret_sealed"),
    /** The id of the ID-photo key that sealed it (a 16-hex-character key id). */
    totpKeyId: text("totp_key_id"),
    /** Null until the first code is confirmed: the second factor takes effect only then. */
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The last accepted TOTP time step: a code of that step or before is never accepted again. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("admin_users_email_idx").on(sql`lower(${table.email})`),
    check("admin_users_role_valid", sql`${table.role} IN ('owner', 'manager', 'driver')`),
  ],
);

/**
 * The order a driver chose for their stops of a day (the run on the phone): a stop's position
 * within its slot. Stops without a row keep the slot's own order (first placed first).
 */
export const driverStopPositions = pgTable(
  "driver_stop_positions",
  {
    driverId: uuid("driver_id")
      .notNull()
      .references(() => adminUsers.id, { onDelete: "cascade" }),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    position: integer("position").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.driverId, table.orderId] }),
    index("driver_stop_positions_day_idx").on(table.driverId, table.deliveryDate),
  ],
);

/** Ten single-use recovery codes per enrolment (P-27), stored hashed. */
export const adminRecoveryCodes = pgTable(
  "admin_recovery_codes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => adminUsers.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("admin_recovery_codes_user_idx").on(table.userId)],
);

/** Invitations to join the staff: a single-use link valid 48 hours. */
export const staffInvitations = pgTable(
  "staff_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** SHA-256 of the link's token. */
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    role: text("role").$type<StaffRole>().notNull(),
    firstName: text("first_name").notNull().default(""),
    invitedBy: uuid("invited_by").references(() => adminUsers.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("staff_invitations_token_idx").on(table.tokenHash),
    index("staff_invitations_email_idx").on(sql`lower(${table.email})`),
    check("staff_invitations_role_valid", sql`${table.role} IN ('owner', 'manager', 'driver')`),
  ],
);

/**
 * A sign-in between its password and its second factor: the password step hands the browser this
 * challenge's token; five wrong codes end it (P-27).
 */
export const adminSignInChallenges = pgTable(
  "admin_sign_in_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => adminUsers.id, { onDelete: "cascade" }),
    failedCodes: integer("failed_codes").notNull().default(0),
    redirectTo: text("redirect_to"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("admin_sign_in_challenges_expires_idx").on(table.expiresAt)],
);

/**
 * The audit log (P-27): append-only; a trigger refuses UPDATE and DELETE except the
 * retention purge (`purge_audit_events`). Details never hold an ID photo, a password, a secret,
 * a session token or a customer's address.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    actorRole: text("actor_role"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ipAddress: text("ip_address"),
    requestId: text("request_id"),
    /**
     * The hash chain (record 036): `hash` is SHA-256 over `prev_hash` and this row's canonical
     * content, both set by the `audit_events_chain` trigger under the `audit_chain` row's lock.
     */
    prevHash: text("prev_hash"),
    hash: text("hash"),
  },
  (table) => [
    index("audit_events_created_idx").on(table.createdAt.desc(), table.id.desc()),
    index("audit_events_actor_idx").on(table.actorId, table.createdAt.desc(), table.id.desc()),
    index("audit_events_action_idx").on(table.action, table.createdAt.desc(), table.id.desc()),
    index("audit_events_target_idx").on(
      table.targetType,
      table.targetId,
      table.createdAt.desc(),
      table.id.desc(),
    ),
  ],
);

/**
 * One row: the audit chain's head (the last event's id and hash), locked by every insert into
 * `audit_events` until its transaction ends, and the last point a verification reached (record 036).
 */
export const auditChain = pgTable(
  "audit_chain",
  {
    id: integer("id").primaryKey().default(1),
    headId: bigint("head_id", { mode: "number" }).notNull().default(0),
    headHash: text("head_hash").notNull(),
    verifiedId: bigint("verified_id", { mode: "number" }),
    verifiedHash: text("verified_hash"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
  },
  (table) => [check("audit_chain_one_row", sql`${table.id} = 1`)],
);

export const adminSessions = pgTable(
  "admin_sessions",
  {
    /** SHA-256 of the cookie token: a leaked table does not hand out sessions. */
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => adminUsers.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    /** The device as the browser named it (User-Agent, shortened) for /admin/account. */
    userAgent: text("user_agent").notNull().default(""),
    ipAddress: text("ip_address").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /**
     * When this session last proved its password and second factor (the sign-in, or a re-check):
     * sensitive changes of one's own account need it within the last 10 minutes (record 037).
     */
    reauthenticatedAt: timestamp("reauthenticated_at", { withTimezone: true }),
  },
  (table) => [
    index("admin_sessions_user_id_idx").on(table.userId),
    index("admin_sessions_expires_at_idx").on(table.expiresAt),
  ],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    ipAddress: text("ip_address").notNull(),
    succeeded: boolean("succeeded").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("login_attempts_email_idx").on(table.email, table.createdAt),
    index("login_attempts_ip_idx").on(table.ipAddress, table.createdAt),
  ],
);

export const EMAIL_STATUSES = ["queued", "sending", "sent", "failed", "held"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    kind: text("kind").notNull(),
    /** 'email', or 'sms' (record 054): a text to `to_address`, an E.164 number, with `text_body` only. */
    channel: text("channel").$type<OutboxChannel>().notNull().default("email"),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    /**
     * A secret the bodies stand in for (an invitation's token, record 036): put into the mail only
     * as it is sent, cleared once it is sent or given up, never in a backup.
     */
    secret: text("secret"),
    status: text("status").$type<EmailStatus>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** Where a sent mail went: 'smtp' (a mail server took it) or 'folder' (written to DATA_DIR/outbox). */
    sentVia: text("sent_via"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("email_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("email_outbox_created_at_idx").on(table.createdAt.desc()),
    check(
      "email_outbox_status_valid",
      sql`${table.status} IN ('queued', 'sending', 'sent', 'failed', 'held')`,
    ),
    check("email_outbox_channel_valid", sql`${table.channel} IN ('email', 'sms')`),
  ],
);

export type OutboxChannel = "email" | "sms";

/** Phone numbers (E.164) that replied STOP (P-37): no text goes to them until they reply START. */
export const smsOptOuts = pgTable("sms_opt_outs", {
  phone: text("phone").primaryKey(),
  optedOutAt: timestamp("opted_out_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A 6-digit code sent to a checkout's phone (or e-mail) before the order is placed (P-36, record
 * 054): only its hash is kept; 5 tries, 10 minutes.
 */
export const contactVerifications = pgTable(
  "contact_verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The phone (E.164) or the lower-cased e-mail address the order names. */
    contact: text("contact").notNull(),
    /** Where the code went: 'sms' or 'email'. */
    channel: text("channel").$type<OutboxChannel>().notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("contact_verifications_contact_idx").on(table.contact, table.createdAt.desc()),
    index("contact_verifications_expires_at_idx").on(table.expiresAt),
    check("contact_verifications_channel_valid", sql`${table.channel} IN ('email', 'sms')`),
  ],
);

/**
 * One row: bumped whenever anything a catalogue page shows changes, so every app instance
 * sharing the database can tell its cached pages are stale.
 */
export const catalogState = pgTable("catalog_state", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull().default(1),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The shop's delivery area (P-21): each zone a state and its residential ZIP codes, seeded
 * by drizzle/0009 from app/features/delivery/delivery-area-seed.ts and edited by staff at
 * /admin/settings/delivery. A ZIP is in at most one active zone (checked when a zone is saved).
 */
export const deliveryZones = pgTable(
  "delivery_zones",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    state: text("state").notNull(),
    active: boolean("active").notNull().default(true),
    zipCodes: text("zip_codes").array().notNull().default(sql`'{}'::text[]`),
    /** The zone's own minimum order, or null: the shop's $80.00 minimum (always the floor). */
    minimumOrderCents: integer("minimum_order_cents"),
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("delivery_zones_name_idx").on(sql`lower(${table.name})`),
    check("delivery_zones_state_valid", sql`${table.state} IN ('DC', 'VA')`),
    check(
      "delivery_zones_minimum_non_negative",
      sql`${table.minimumOrderCents} IS NULL OR ${table.minimumOrderCents} >= 0`,
    ),
  ],
);

/**
 * Dates or single slots of a date the shop does not deliver (P-22): a holiday (slot null)
 * or one slot, with the reason shoppers see.
 */
export const deliveryClosures = pgTable(
  "delivery_closures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    date: date("date", { mode: "string" }).notNull(),
    /** One slot label, or null for the whole date. */
    slot: text("slot"),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("delivery_closures_date_slot_idx").on(table.date, sql`coalesce(${table.slot}, '')`),
  ],
);

/**
 * A driver's cash for one shift (store day, P-33): the float taken out, and at hand-in the
 * figures as they stood then (collected, change given, expected, counted). A manager or owner
 * confirms the drop. One sheet per driver and day; kept like the orders (record 052).
 */
export const driverCashSheets = pgTable(
  "driver_cash_sheets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    driverId: uuid("driver_id")
      .notNull()
      .references(() => adminUsers.id),
    shiftDate: date("shift_date", { mode: "string" }).notNull(),
    floatCents: integer("float_cents").notNull().default(0),
    collectedCents: bigint("collected_cents", { mode: "number" }),
    changeCents: bigint("change_cents", { mode: "number" }),
    expectedCents: bigint("expected_cents", { mode: "number" }),
    countedCents: bigint("counted_cents", { mode: "number" }),
    handedInAt: timestamp("handed_in_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    confirmedBy: uuid("confirmed_by").references(() => adminUsers.id),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("driver_cash_sheets_driver_day_idx").on(table.driverId, table.shiftDate),
    index("driver_cash_sheets_day_idx").on(table.shiftDate),
    check("driver_cash_sheets_float_non_negative", sql`${table.floatCents} >= 0`),
    check(
      "driver_cash_sheets_counted_non_negative",
      sql`${table.countedCents} IS NULL OR ${table.countedCents} >= 0`,
    ),
    check(
      "driver_cash_sheets_handed_in_whole",
      sql`(${table.handedInAt} IS NULL) = (${table.countedCents} IS NULL) AND (${table.handedInAt} IS NULL) = (${table.expectedCents} IS NULL)`,
    ),
    check(
      "driver_cash_sheets_confirmed_after_hand_in",
      sql`${table.confirmedAt} IS NULL OR (${table.handedInAt} IS NOT NULL AND ${table.confirmedBy} IS NOT NULL)`,
    ),
  ],
);

/** One stop of a run's manifest as frozen when the run started (record 052). */
export type RunManifestStop = {
  orderId: string;
  customerName: string;
  deliveryAddress: string;
  deliveryTime: string;
  totalCents: number;
  items: {
    productName: string;
    sizeLabel: string;
    quantity: number;
    /** Flower equivalent of the line (quantity × the size's), null when the size has none. */
    flowerEquivalentMg: number | null;
  }[];
};

/**
 * A run's manifest (P-33): driver, vehicle, departure and every order with its items, frozen when
 * 'Start run' sends them out. Never updated: later changes to an order or product leave it as it was.
 */
export const runManifests = pgTable(
  "run_manifests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    driverId: uuid("driver_id")
      .notNull()
      .references(() => adminUsers.id),
    /** The driver's name and e-mail as they were at departure. */
    driverName: text("driver_name").notNull(),
    deliveryDate: date("delivery_date", { mode: "string" }).notNull(),
    departedAt: timestamp("departed_at", { withTimezone: true }).notNull(),
    vehicle: text("vehicle"),
    stops: jsonb("stops").$type<RunManifestStop[]>().notNull(),
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
    /** Sum of the known flower equivalents; `weightComplete` says whether every line had one. */
    flowerEquivalentMg: bigint("flower_equivalent_mg", { mode: "number" }).notNull(),
    weightComplete: boolean("weight_complete").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("run_manifests_day_driver_idx").on(table.deliveryDate, table.driverId, table.departedAt)],
);

/**
 * Proof at the door (P-32, record 051): what the driver recorded on 'Delivered', one row per
 * delivered order, kept as long as the order. The date of birth typed from the ID is not kept,
 * only the age it gave on the store's date. The signature (a PNG) is sealed with the ID-photo key
 * ring like ID photos: AES-256-GCM, `signature_nonce` random per row, the key named by
 * `signature_key_id`.
 */
export const deliveryProofs = pgTable(
  "delivery_proofs",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    driverId: uuid("driver_id").references(() => adminUsers.id, { onDelete: "set null" }),
    ageYears: smallint("age_years").notNull(),
    cashReceivedCents: bigint("cash_received_cents", { mode: "number" }).notNull(),
    changeCents: bigint("change_cents", { mode: "number" }).notNull(),
    signatureKeyId: text("signature_key_id").notNull(),
    signatureNonce: bytea("signature_nonce").notNull(),
    signatureBytes: bytea("signature_bytes").notNull(),
    /** The phone's clock when the driver pressed Delivered (null when it was sent online without one). */
    phoneTime: timestamp("phone_time", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("delivery_proofs_age_adult", sql`${table.ageYears} >= 21`),
    check("delivery_proofs_change_non_negative", sql`${table.changeCents} >= 0`),
    check("delivery_proofs_cash_covers_change", sql`${table.cashReceivedCents} >= ${table.changeCents}`),
  ],
);

/** Every 'Could not deliver' of an order (P-32): the order became 'returning'. */
export const deliveryFailures = pgTable(
  "delivery_failures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    driverId: uuid("driver_id").references(() => adminUsers.id, { onDelete: "set null" }),
    reason: text("reason").notNull(),
    note: text("note"),
    phoneTime: timestamp("phone_time", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("delivery_failures_order_id_idx").on(table.orderId, table.createdAt),
    check(
      "delivery_failures_reason_valid",
      sql`${table.reason} IN ('customer-not-home', 'no-valid-id', 'under-21', 'refused', 'address-not-reachable', 'other')`,
    ),
  ],
);

/**
 * Customer accounts without passwords (record 053): one per verified e-mail address, made at the
 * first sign-in with a code. Deleting one keeps its orders with the personal data removed.
 */
export const customers = pgTable(
  "customers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lower-cased; verified by the sign-in code that made the account. */
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    /** E.164, as orders store phones (record 039); empty until the customer gives one. */
    phone: text("phone").notNull().default(""),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }).notNull(),
    /** Staff's note on the customer (/admin/customers, record 057); never shown to the customer. */
    staffNote: text("staff_note").notNull().default(""),
    ...timestamps,
  },
  (table) => [uniqueIndex("customers_email_idx").on(table.email)],
);

/**
 * A sign-in code sent to an e-mail address: only its SHA-256 (keyed by the row id) is kept, valid
 * 10 minutes, 5 tries spent before each check. A new code replaces the address's open one.
 */
export const customerSignInCodes = pgTable(
  "customer_sign_in_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("customer_sign_in_codes_email_idx").on(table.email),
    index("customer_sign_in_codes_expires_at_idx").on(table.expiresAt),
  ],
);

/** Customer sessions: as staff's (only the token's SHA-256 kept), under their own cookie. */
export const customerSessions = pgTable(
  "customer_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    userAgent: text("user_agent").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("customer_sessions_customer_id_idx").on(table.customerId),
    index("customer_sessions_expires_at_idx").on(table.expiresAt),
  ],
);

/** A customer's passkeys (WebAuthn credentials): the public key only, as COSE (record 053). */
export const customerPasskeys = pgTable(
  "customer_passkeys",
  {
    /** The credential id, base64url. */
    id: text("id").primaryKey(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    publicKey: bytea("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").notNull().default(""),
    deviceName: text("device_name").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [index("customer_passkeys_customer_id_idx").on(table.customerId)],
);

/**
 * A passkey ceremony's challenge (registration by a signed-in customer, or a sign-in), single use,
 * valid 5 minutes; the browser holds a random token for it in a short-lived cookie.
 */
export const customerPasskeyChallenges = pgTable(
  "customer_passkey_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    challenge: text("challenge").notNull(),
    customerId: uuid("customer_id").references(() => customers.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("customer_passkey_challenges_expires_at_idx").on(table.expiresAt)],
);

/** Saved delivery addresses, checked against the delivery zones when saved; at most one default. */
export const customerAddresses = pgTable(
  "customer_addresses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    street: text("street").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("customer_addresses_customer_id_idx").on(table.customerId),
    uniqueIndex("customer_addresses_one_default_idx").on(table.customerId).where(sql`${table.isDefault}`),
    check("customer_addresses_state_valid", sql`${table.state} IN ('DC', 'VA')`),
  ],
);

/**
 * Every action a driver's phone sent through `/driver/sync` (record 050), keyed by the phone's
 * idempotency key: applied once, a repeat answered with the first outcome. Holds the phone's time
 * and the server's; 'pending' while the action is being applied. The delivery proof's signature
 * is not kept here (it is stored encrypted with the order).
 */
export const driverActionLog = pgTable(
  "driver_action_log",
  {
    key: uuid("key").primaryKey(),
    driverId: uuid("driver_id")
      .notNull()
      .references(() => adminUsers.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** The order acted on (null for a start of the run, which names several in `action`). */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    action: jsonb("action").$type<Record<string, unknown>>().notNull(),
    phoneTime: timestamp("phone_time", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    outcome: text("outcome").notNull().default("pending"),
    conflict: text("conflict"),
    message: text("message"),
    /** When the server applied or refused it. */
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (table) => [
    index("driver_action_log_driver_idx").on(table.driverId, table.receivedAt),
    index("driver_action_log_order_idx").on(table.orderId),
    check("driver_action_log_outcome_valid", sql`${table.outcome} IN ('pending', 'applied', 'refused')`),
  ],
);

/** The last time each driver's phone reached the server (its run fetched or its queue sent). */
export const driverPhoneSyncs = pgTable("driver_phone_syncs", {
  driverId: uuid("driver_id")
    .primaryKey()
    .references(() => adminUsers.id, { onDelete: "cascade" }),
  syncedAt: timestamp("synced_at", { withTimezone: true }).notNull(),
  /** Actions the phone still held when it last reached the server. */
  waiting: integer("waiting").notNull().default(0),
});

/**
 * A customer's ID kept on file (record 058): a copy of the photo of the order where they ticked
 * 'Keep my ID on file for next time', encrypted like every ID photo. Usable at checkout only once
 * staff verified it and recorded its expiry (`expires_on`, the ID's last valid day) and while that
 * day is not past. One per customer; deleted at expiry plus the retention period, on the customer's
 * request, with the account, or when staff revoke it.
 */
export const customerIdFiles = pgTable(
  "customer_id_files",
  {
    customerId: uuid("customer_id")
      .primaryKey()
      .references(() => customers.id, { onDelete: "cascade" }),
    photoId: uuid("photo_id")
      .notNull()
      .references(() => idPhotos.id, { onDelete: "cascade" }),
    /** The order whose photo this is: staff verify it there. */
    sourceOrderId: uuid("source_order_id").references(() => orders.id, { onDelete: "set null" }),
    expiresOn: date("expires_on", { mode: "string" }),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    verifiedBy: uuid("verified_by").references(() => adminUsers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("customer_id_files_photo_id_idx").on(table.photoId),
    index("customer_id_files_source_order_id_idx").on(table.sourceOrderId),
    index("customer_id_files_expires_on_idx").on(table.expiresOn),
    check(
      "customer_id_files_verified_has_expiry",
      sql`(${table.verifiedAt} IS NULL) = (${table.expiresOn} IS NULL)`,
    ),
  ],
);
