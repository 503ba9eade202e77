-- Staff's note on a customer (/admin/customers, record 057). Not a write path: an older instance
-- writes customers without it and gets the default.
ALTER TABLE "customers" ADD COLUMN "staff_note" text DEFAULT '' NOT NULL;
