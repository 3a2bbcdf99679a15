import type { DbOrTx } from "../tx.ts";

export interface FrameworkRecord {
  name: string;
  frameworkId: string;
  masterUrl: string;
  updatedAt: Date;
}

export interface LeaseRecord {
  name: string;
  holder: string;
  /** Goes up by one at every election; the leader's writes are fenced by it. */
  epoch: number;
  acquiredAt: Date;
  renewedAt: Date;
}

/**
 * What the scheduler must remember across restarts and replicas: the Mesos
 * framework id it subscribed as (re-used inside the failover timeout), and
 * who holds the scheduling lease and at which epoch (the advisory lock decides
 * who may lead; the epoch fences the leader's writes).
 */
export function clusterIdentityRepository(db: DbOrTx) {
  return {
    async framework(name: string): Promise<FrameworkRecord | null> {
      return db.mesosFramework.findUnique({ where: { name } });
    },

    async saveFramework(name: string, frameworkId: string, masterUrl: string): Promise<void> {
      await db.mesosFramework.upsert({
        where: { name },
        create: { name, frameworkId, masterUrl },
        update: { frameworkId, masterUrl },
      });
    },

    async forgetFramework(name: string): Promise<void> {
      await db.mesosFramework.deleteMany({ where: { name } });
    },

    /**
     * Inside a transaction: waits until no other transaction holds `key`,
     * then holds it to the end of this one (a transaction-scoped advisory
     * lock). Replicas starting together use it to run once-only set-up one
     * after the other.
     */
    async serialize(key: string): Promise<void> {
      await db.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext(${key})::bigint)) AS locked`;
    },

    async lease(name: string): Promise<LeaseRecord | null> {
      const row = await db.schedulerLease.findUnique({ where: { name } });
      return row === null ? null : { ...row, epoch: Number(row.epoch) };
    },

    /**
     * Records `holder` as the lease's holder without an election (tests and
     * tools; the scheduler's LeaseSession claims and renews the lease).
     */
    async recordLease(name: string, holder: string): Promise<void> {
      const now = new Date();
      await db.schedulerLease.upsert({
        where: { name },
        create: { name, holder, acquiredAt: now, renewedAt: now },
        update: { holder, acquiredAt: now, renewedAt: now },
      });
    },
  };
}
