-- The outbox's mail bodies (two per order, HTML of several kilobytes) are compressed as they are
-- written, inside the order's own statement. PostgreSQL's default, pglz, took about 6 % of the
-- database's CPU per order (perf, issue 16's orders/s); lz4 compresses them for a fraction of that.
-- PGlite is built without lz4: its bodies keep pglz.
DO $$
BEGIN
  ALTER TABLE "email_outbox" ALTER COLUMN "html_body" SET COMPRESSION lz4;
  ALTER TABLE "email_outbox" ALTER COLUMN "text_body" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
