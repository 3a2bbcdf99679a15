"use client";
import { HOST_STATES } from "@peloton/api/schemas";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { StateCounts } from "@/components/ui/state-counts";
import type { OverviewSummary } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { hostTone, JOB_ORDER, jobTone, TASK_ORDER, taskTone } from "@/lib/states";
import { useTRPC } from "@/lib/trpc";
import { ActivityFeed } from "./activity-feed";
import { Capacity } from "./capacity";
import { LeaderBadge } from "./leader";
import { NeedsAttention } from "./needs-attention";
import { PoolsTable } from "./pools-table";

/**
 * Live updates refetch the overview when something changes; this slow poll
 * only catches figures that change without an announcement.
 */
const REFRESH_MS = 30_000;

function Stat({
  label,
  value,
  testId,
  href,
}: {
  label: string;
  value: number;
  testId: string;
  href?: string;
}) {
  const body = (
    <>
      <p className="text-xs font-semibold uppercase tracking-wide text-muted">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
        {formatCount(value)}
      </p>
    </>
  );
  const box = "block rounded-lg border border-border bg-surface px-4 py-3";
  return href ? (
    <Link href={href} className={`${box} hover:border-accent`}>
      {body}
    </Link>
  ) : (
    <div className={box}>{body}</div>
  );
}

export function Overview({ initial }: { initial: OverviewSummary }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.overview.summary.queryOptions(undefined, {
      initialData: initial,
      refetchInterval: REFRESH_MS,
      refetchIntervalInBackground: false,
    }),
  );
  const s = query.data;
  return (
    <div className="space-y-5">
      <PageHeader title="Cluster overview" description={<LeaderBadge />} live={query} />

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {/* The same count as the pools card: pools below the root (the root is the cluster). */}
        <Stat label="Pools" value={s.poolList.length} testId="stat-pools" href="/pools" />
        <Stat label="Jobs" value={s.jobs} testId="stat-jobs" href="/jobs" />
        <Stat label="Tasks" value={s.tasks} testId="stat-tasks" />
        <Stat label="Hosts" value={s.hosts} testId="stat-hosts" href="/hosts" />
      </div>

      <Card title="Needs attention" testId="attention-card">
        <NeedsAttention />
      </Card>

      <Card title="Capacity and allocation">
        {s.hosts === 0 ? (
          <EmptyState title="No hosts have registered">
            Capacity appears when Mesos agents register with the master the scheduler is subscribed
            to.
          </EmptyState>
        ) : (
          <Capacity summary={s} />
        )}
      </Card>

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-3">
        <Card title="Tasks by state">
          {s.tasks === 0 ? (
            <EmptyState title="No tasks yet">
              Tasks appear here when jobs are submitted to a pool.
            </EmptyState>
          ) : (
            <StateCounts
              counts={s.tasksByState}
              order={TASK_ORDER}
              tone={taskTone}
              testId="tasks-by-state"
            />
          )}
        </Card>
        <Card title="Jobs by state">
          {s.jobs === 0 ? (
            <EmptyState title="No jobs yet">Submitted jobs are counted here by state.</EmptyState>
          ) : (
            <StateCounts
              counts={s.jobsByState}
              order={JOB_ORDER}
              tone={jobTone}
              testId="jobs-by-state"
              href={(state) => `/jobs?state=${state}`}
            />
          )}
        </Card>
        <Card title="Hosts by state">
          {s.hosts === 0 ? (
            <EmptyState title="No hosts yet">
              Hosts are listed by state once agents register.
            </EmptyState>
          ) : (
            <StateCounts
              counts={s.hostsByState}
              order={HOST_STATES}
              tone={hostTone}
              testId="hosts-by-state"
            />
          )}
        </Card>
      </div>

      <Card
        title="Recent activity"
        testId="activity-card"
        action={
          <Link href="/audit" className="text-xs text-accent hover:underline">
            Audit log →
          </Link>
        }
      >
        <ActivityFeed />
      </Card>

      <Card
        title={`Resource pools (${formatCount(s.poolList.length)} below the root)`}
        testId="pools-card"
      >
        {s.poolList.length === 0 ? (
          <EmptyState title="Only the root pool exists">
            Pools created through the API or the CLI appear here.
          </EmptyState>
        ) : (
          <PoolsTable pools={s.poolList} />
        )}
      </Card>
    </div>
  );
}
