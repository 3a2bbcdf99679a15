-- Lease epochs and the fence on the leader's writes.
--
-- Every election bumps scheduler_leases.epoch. The leader writes through
-- connections opened with `-c peloton.lease=<name> -c peloton.lease_epoch=<n>`;
-- a statement-level trigger on every table checks, before each INSERT,
-- UPDATE or DELETE statement of such a connection, that the lease is still
-- at that epoch, and raises SQLSTATE PLF01 otherwise. Connections without
-- `peloton.lease` (the API writing for users, tools, tests) pass untouched.
--
-- The check reads the lease row FOR KEY SHARE and holds that lock until its
-- transaction ends. The epoch is a key column (unique index on name, epoch),
-- so a new leader's bump waits for every fenced transaction in flight and
-- every later one sees the new epoch and fails: the deposed leader's writes
-- all come before the bump, none after. Renewals touch renewed_at only, a
-- non-key update, which does not wait for the fence's lock.

-- AlterTable
ALTER TABLE "scheduler_leases" ADD COLUMN     "epoch" BIGINT NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "scheduler_leases_name_epoch_key" ON "scheduler_leases"("name", "epoch");

CREATE FUNCTION peloton_lease_fence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  lease text := current_setting('peloton.lease', true);
  mine bigint;
  current_epoch bigint;
BEGIN
  IF lease IS NULL OR lease = '' THEN
    RETURN NULL;
  END IF;
  mine := current_setting('peloton.lease_epoch')::bigint;
  SELECT epoch INTO current_epoch FROM scheduler_leases WHERE name = lease FOR KEY SHARE;
  IF current_epoch IS DISTINCT FROM mine THEN
    RAISE EXCEPTION 'fenced: this connection writes for lease "%" epoch %, the lease is at epoch %',
      lease, mine, coalesce(current_epoch::text, 'none')
      USING ERRCODE = 'PLF01';
  END IF;
  RETURN NULL;
END
$$;

-- Attaches the fence to every table that lacks it (all but the lease itself
-- and Prisma's bookkeeping). A migration that adds a table calls it again;
-- a storage test fails while any table is unfenced.
CREATE FUNCTION peloton_attach_lease_fences() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t record;
  n integer := 0;
BEGIN
  FOR t IN
    SELECT c.relname
      FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
     WHERE ns.nspname = current_schema()
       AND c.relkind IN ('r', 'p')
       AND NOT c.relispartition
       AND c.relname NOT IN ('scheduler_leases', '_prisma_migrations')
       AND NOT EXISTS (
         SELECT 1 FROM pg_trigger tg WHERE tg.tgrelid = c.oid AND tg.tgname = 'peloton_lease_fence')
  LOOP
    EXECUTE format(
      'CREATE TRIGGER peloton_lease_fence BEFORE INSERT OR UPDATE OR DELETE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION peloton_lease_fence()', t.relname);
    n := n + 1;
  END LOOP;
  RETURN n;
END
$$;

SELECT peloton_attach_lease_fences();
