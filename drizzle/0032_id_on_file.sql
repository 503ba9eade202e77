CREATE TABLE "customer_id_files" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"photo_id" uuid NOT NULL,
	"source_order_id" uuid,
	"expires_on" date,
	"verified_at" timestamp with time zone,
	"verified_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_id_files_verified_has_expiry" CHECK (("customer_id_files"."verified_at" IS NULL) = ("customer_id_files"."expires_on" IS NULL))
);--> statement-breakpoint
ALTER TABLE "customer_id_files" ADD CONSTRAINT "customer_id_files_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_id_files" ADD CONSTRAINT "customer_id_files_photo_id_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "id_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_id_files" ADD CONSTRAINT "customer_id_files_source_order_id_orders_id_fk" FOREIGN KEY ("source_order_id") REFERENCES "orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_id_files" ADD CONSTRAINT "customer_id_files_verified_by_admin_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "admin_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_id_files_photo_id_idx" ON "customer_id_files" USING btree ("photo_id");--> statement-breakpoint
CREATE INDEX "customer_id_files_source_order_id_idx" ON "customer_id_files" USING btree ("source_order_id");--> statement-breakpoint
CREATE INDEX "customer_id_files_expires_on_idx" ON "customer_id_files" USING btree ("expires_on");
