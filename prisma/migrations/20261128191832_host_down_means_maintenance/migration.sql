-- Until now DOWN meant "gone from the cluster"; it now means "in
-- maintenance" (Peloton's meaning) and a gone agent is LOST. Hosts recorded
-- DOWN before were all gone agents. (A migration of its own: a value added
-- to an enum cannot be used in the transaction that added it.)
UPDATE "hosts" SET "state" = 'LOST' WHERE "state" = 'DOWN';
