"use client";
import * as Tabs from "@radix-ui/react-tabs";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { refusal, useAccessDecider } from "@/components/identity/use-access";
import { usePoolFacts } from "@/components/identity/use-pool-facts";
import { Fact } from "@/components/ui/fact";
import { PoolPathText } from "@/components/ui/ids";
import { LiveIndicator } from "@/components/ui/live-indicator";
import { PageTabList } from "@/components/ui/page-tabs";
import { RelativeTime } from "@/components/ui/relative-time";
import type { JobDetail, TasksPage } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { poolHref } from "@/lib/pools";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";
import { groupCounts, InstanceBar } from "../instance-bar";
import { YamlEditor } from "../new/yaml-editor";
import { StateBadge } from "../state-badge";
import { UpdateBanner } from "../updates/update-banner";
import { UpdatesTab } from "../updates/updates-tab";
import { InstancesTable } from "./instances-table";
import { JobActions } from "./job-actions";
import { JobEvents } from "./job-events";
import { JobLogs } from "./job-logs";
import { WhyPending } from "./why-pending";

const TABS = ["instances", "updates", "config", "events", "logs"] as const;
type Tab = (typeof TABS)[number];

/** `/jobs/<id>`: the job at a glance, why it waits, its instances, config, timeline and logs; its actions. */
export function JobPage({
  initial,
  initialTasks,
}: {
  initial: JobDetail;
  initialTasks: TasksPage;
}) {
  const trpc = useTRPC();
  const query = useQuery(trpc.jobs.get.queryOptions({ id: initial.id }, { initialData: initial }));
  const job = query.data;
  const [tab, setTab] = useSearchParam<Tab>("tab", "instances", TABS);
  const counts = groupCounts(job.taskStats).filter((g) => g.count > 0);
  const pool = usePoolFacts(job.poolPath);
  const decide = useAccessDecider();
  const updateDenied = refusal(decide(pool && { kind: "update.act", verb: "create", pool }));

  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-muted">
        <Link href="/jobs" className="hover:text-fg hover:underline">
          Jobs
        </Link>{" "}
        / <span className="text-fg">{job.name}</span>
      </nav>

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-lg font-semibold">
            {job.name}
            <span className="text-sm font-normal">
              <StateBadge state={job.state} goal={job.goalState} testId="job-state" />
            </span>
          </h1>
          <p className="font-mono text-xs text-muted" data-testid="job-id">
            {job.id}
          </p>
          {job.description && <p className="mt-1 text-muted">{job.description}</p>}
        </div>
        <div className="flex flex-col items-end gap-2">
          <LiveIndicator updatedAt={query.dataUpdatedAt} failing={query.isError} />
          <JobActions job={job} />
        </div>
      </div>

      <section aria-label="Summary" className="rounded-lg border border-border bg-surface p-4">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-4 xl:grid-cols-8">
          <Fact label="Type">{job.type}</Fact>
          <Fact label="Goal">{job.goalState}</Fact>
          <Fact label="Pool">
            <Link href={poolHref(job.poolPath)} className="hover:underline">
              <PoolPathText path={job.poolPath} />
            </Link>
          </Fact>
          <Fact label="Owner">
            {job.owner}
            {job.owningTeam && <span className="text-muted"> · {job.owningTeam}</span>}
          </Fact>
          <Fact label="Priority">
            {job.priority}
            <span className="text-muted">
              {" "}
              · {job.preemptible ? "preemptible" : "not preemptible"}
              {job.revocable ? " · revocable" : ""}
            </span>
          </Fact>
          <Fact label="Created">
            <RelativeTime at={job.createdAt} />
          </Fact>
          <Fact label={job.completedAt ? "Completed" : "Updated"}>
            <RelativeTime at={job.completedAt ?? job.updatedAt} />
          </Fact>
          <Fact label="Version">
            {job.version}
            <span className="text-muted"> · config {job.configVersion}</span>
          </Fact>
        </dl>
        <div className="mt-4 grid grid-cols-1 items-center gap-4 md:grid-cols-[16rem_minmax(0,1fr)]">
          <InstanceBar stats={job.taskStats} total={job.instanceCount} showText={false} />
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" data-testid="job-counts">
            <li className="text-muted">
              <span className="font-semibold text-fg tabular-nums">
                {formatCount(job.instanceCount)}
              </span>{" "}
              instances:
            </li>
            {counts.map((g) => (
              <li key={g.key} data-group={g.key}>
                <span className="font-semibold tabular-nums" data-testid={`count-${g.key}`}>
                  {formatCount(g.count)}
                </span>{" "}
                <span className="text-muted">{g.label}</span>
              </li>
            ))}
          </ul>
        </div>
        {job.labels.length > 0 && (
          <ul className="mt-3 flex flex-wrap gap-1" aria-label="Labels">
            {job.labels.map((l) => (
              <li key={`${l.key}=${l.value}`}>
                <Link
                  href={`/jobs?label=${encodeURIComponent(`${l.key}=${l.value}`)}`}
                  className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs hover:border-accent"
                >
                  <span className="text-muted">{l.key}=</span>
                  {l.value}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <UpdateBanner jobId={job.id} denied={updateDenied} onDetails={() => setTab("updates")} />

      <WhyPending job={job} />

      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <PageTabList label="Job views" tabs={TABS} />
        <Tabs.Content forceMount value="instances" className="pt-4 data-[state=inactive]:hidden">
          <InstancesTable job={job} initial={initialTasks} />
        </Tabs.Content>
        {/* The updates list and the version diff only load while they are looked at. */}
        <Tabs.Content value="updates" className="pt-4">
          <UpdatesTab jobId={job.id} currentVersion={job.configVersion} />
        </Tabs.Content>
        <Tabs.Content forceMount value="config" className="pt-4 data-[state=inactive]:hidden">
          <p className="mb-2 text-xs text-muted">
            The job&apos;s YAML as it was submitted (read-only).
          </p>
          <YamlEditor
            value={job.configYaml}
            readOnly
            label="Job config as submitted"
            minHeight="10rem"
            testId="job-config"
          />
        </Tabs.Content>
        {/* The timeline and the log stream only run while they are looked at. */}
        <Tabs.Content value="events" className="pt-4">
          <JobEvents jobId={job.id} />
        </Tabs.Content>
        <Tabs.Content value="logs" className="pt-4">
          <JobLogs job={job} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
