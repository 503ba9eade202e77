CREATE TABLE "driver_cash_sheets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"driver_id" uuid NOT NULL,
	"shift_date" date NOT NULL,
	"float_cents" integer DEFAULT 0 NOT NULL,
	"collected_cents" bigint,
	"change_cents" bigint,
	"expected_cents" bigint,
	"counted_cents" bigint,
	"handed_in_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "driver_cash_sheets_float_non_negative" CHECK ("driver_cash_sheets"."float_cents" >= 0),
	CONSTRAINT "driver_cash_sheets_counted_non_negative" CHECK ("driver_cash_sheets"."counted_cents" IS NULL OR "driver_cash_sheets"."counted_cents" >= 0),
	CONSTRAINT "driver_cash_sheets_handed_in_whole" CHECK (("driver_cash_sheets"."handed_in_at" IS NULL) = ("driver_cash_sheets"."counted_cents" IS NULL) AND ("driver_cash_sheets"."handed_in_at" IS NULL) = ("driver_cash_sheets"."expected_cents" IS NULL)),
	CONSTRAINT "driver_cash_sheets_confirmed_after_hand_in" CHECK ("driver_cash_sheets"."confirmed_at" IS NULL OR ("driver_cash_sheets"."handed_in_at" IS NOT NULL AND "driver_cash_sheets"."confirmed_by" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "run_manifests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"driver_id" uuid NOT NULL,
	"driver_name" text NOT NULL,
	"delivery_date" date NOT NULL,
	"departed_at" timestamp with time zone NOT NULL,
	"vehicle" text,
	"stops" jsonb NOT NULL,
	"total_cents" bigint NOT NULL,
	"flower_equivalent_mg" bigint NOT NULL,
	"weight_complete" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "driver_cash_sheets" ADD CONSTRAINT "driver_cash_sheets_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_cash_sheets" ADD CONSTRAINT "driver_cash_sheets_confirmed_by_admin_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_manifests" ADD CONSTRAINT "run_manifests_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "driver_cash_sheets_driver_day_idx" ON "driver_cash_sheets" USING btree ("driver_id","shift_date");--> statement-breakpoint
CREATE INDEX "driver_cash_sheets_day_idx" ON "driver_cash_sheets" USING btree ("shift_date");--> statement-breakpoint
CREATE INDEX "run_manifests_day_driver_idx" ON "run_manifests" USING btree ("delivery_date","driver_id","departed_at");