CREATE TABLE "driver_stop_positions" (
	"driver_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"delivery_date" date NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "driver_stop_positions_driver_id_order_id_pk" PRIMARY KEY("driver_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "driver_stop_positions" ADD CONSTRAINT "driver_stop_positions_driver_id_admin_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_stop_positions" ADD CONSTRAINT "driver_stop_positions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "driver_stop_positions_day_idx" ON "driver_stop_positions" USING btree ("driver_id","delivery_date");