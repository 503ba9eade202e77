CREATE TABLE "driver_action_log" (
	"key" uuid PRIMARY KEY NOT NULL,
	"driver_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	"action" jsonb NOT NULL,
	"phone_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"conflict" text,
	"message" text,
	"settled_at" timestamp with time zone,
	CONSTRAINT "driver_action_log_outcome_valid" CHECK ("driver_action_log"."outcome" IN ('pending', 'applied', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "driver_phone_syncs" (
	"driver_id" uuid PRIMARY KEY NOT NULL,
	"synced_at" timestamp with time zone NOT NULL,
	"waiting" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "driver_action_log" ADD CONSTRAINT "driver_action_log_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_action_log" ADD CONSTRAINT "driver_action_log_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_phone_syncs" ADD CONSTRAINT "driver_phone_syncs_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "driver_action_log_driver_idx" ON "driver_action_log" USING btree ("driver_id","received_at");--> statement-breakpoint
CREATE INDEX "driver_action_log_order_idx" ON "driver_action_log" USING btree ("order_id");