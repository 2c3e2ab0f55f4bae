-- A search's reasons (about 1 MB of json at 10,000 products) compressed with lz4 rather than pglz,
-- where the server was built with lz4: PostgreSQL stores 0.83 MB of them in 9 ms rather than 20 ms,
-- in about the same space, and the first results request waits for that write. A server built
-- without lz4 (the embedded one) keeps pglz: default_toast_compression lists only the methods the
-- server has. Values already stored stay as they are (nothing is rewritten); new ones use lz4.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "funding_search" ALTER COLUMN "matchReasons" SET COMPRESSION lz4;
  END IF;
END $$;
