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
  acquiredAt: Date;
  renewedAt: Date;
}

/**
 * What the scheduler must remember across restarts and replicas: the Mesos
 * framework id it subscribed as (re-used inside the failover timeout), and
 * who holds the scheduling lease (for display: the advisory lock decides).
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

    async lease(name: string): Promise<LeaseRecord | null> {
      return db.schedulerLease.findUnique({ where: { name } });
    },

    /** The holder took the lease now. */
    async recordLease(name: string, holder: string): Promise<void> {
      const now = new Date();
      await db.schedulerLease.upsert({
        where: { name },
        create: { name, holder, acquiredAt: now, renewedAt: now },
        update: { holder, acquiredAt: now, renewedAt: now },
      });
    },

    /** The holder still leads; false when the row names someone else (it lost the lease). */
    async renewLease(name: string, holder: string): Promise<boolean> {
      const { count } = await db.schedulerLease.updateMany({
        where: { name, holder },
        data: { renewedAt: new Date() },
      });
      return count === 1;
    },
  };
}
