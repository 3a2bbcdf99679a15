"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { AccessNote } from "@/components/identity/access-note";
import { refusal, useAccessDecider } from "@/components/identity/use-access";
import { Button } from "@/components/ui/button";
import { Card, EmptyState } from "@/components/ui/card";
import { Fact } from "@/components/ui/fact";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { LiveIndicator } from "@/components/ui/live-indicator";
import { RelativeTime } from "@/components/ui/relative-time";
import { UsageBar } from "@/components/ui/usage-bar";
/**
 * `/hosts/<hostname>`: one host — its state and where the operator wants it
 * (goal), its attributes and resources, its tasks (live), the progress of
 * its evictions while in maintenance (tasks left, and which job's SLA holds
 * the rest), its maintenance history with reasons, and the start/complete
 * maintenance action with a reason.
 */
import type { RouterOutputs } from "@/lib/api-types";
import { formatCount, formatMb, formatResource } from "@/lib/format";
import { hostTone, TONE_DOT, taskTone } from "@/lib/states";
import { useTRPC } from "@/lib/trpc";
import { MaintenanceDialog, type MaintenanceTarget } from "./maintenance-dialog";

type HostDetail = RouterOutputs["hosts"]["get"];
type Evictions = RouterOutputs["hosts"]["evictions"];

const TASKS_PAGE = 50;
const HISTORY_PAGE = 20;

export function HostPage({ initial }: { initial: HostDetail }) {
  const trpc = useTRPC();
  const hostname = initial.hostname;
  const query = useQuery(trpc.hosts.get.queryOptions({ hostname }, { initialData: initial }));
  const h = query.data;
  const evictions = useQuery(trpc.hosts.evictions.queryOptions({ hostname }));
  const [target, setTarget] = useState<MaintenanceTarget | null>(null);
  const decide = useAccessDecider();
  const startAccess = decide({ kind: "host.act", verb: "startMaintenance", hostname });
  const completeRefused = refusal(
    decide({ kind: "host.act", verb: "completeMaintenance", hostname }),
  );
  const inMaintenance = h.goalState === "DOWN";

  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="flex flex-wrap gap-1 text-muted">
        <Link href="/hosts" className="hover:text-fg hover:underline">
          Hosts
        </Link>
        / <span className="font-mono text-fg">{hostname}</span>
      </nav>

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-lg font-semibold">
            <span className="font-mono">{hostname}</span>
            <span
              className="flex items-center gap-1.5 text-sm font-normal"
              data-testid="host-page-state"
              data-state={h.state}
            >
              <span aria-hidden className={`size-2 rounded-full ${TONE_DOT[hostTone(h.state)]}`} />
              {h.state}
              {h.goalState !== h.state && h.state !== "LOST" && (
                <span className="text-muted">→ {h.goalState}</span>
              )}
            </span>
          </h1>
          <p className="text-xs text-muted">
            {h.state} <RelativeTime at={new Date(h.stateSince)} />
            {h.stateReason && <> — {h.stateReason}</>}
          </p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <LiveIndicator updatedAt={query.dataUpdatedAt} failing={query.isError} />
          {h.state === "UP" && h.goalState === "UP" && (
            <Button
              onClick={() => setTarget({ kind: "start", hostname, state: h.state, tasks: h.tasks })}
              disabledReason={refusal(startAccess)}
            >
              Start maintenance
            </Button>
          )}
          {inMaintenance && (
            <Button
              onClick={() =>
                setTarget({ kind: "complete", hostname, state: h.state, tasks: h.tasks })
              }
              disabledReason={completeRefused}
            >
              Complete maintenance
            </Button>
          )}
          {h.goalState === "UP" && h.state !== "UP" && h.state !== "LOST" && (
            <span className="text-xs text-muted">maintenance completed; coming back UP</span>
          )}
          {h.state === "LOST" && (
            <span className="text-xs text-muted">
              its agent is not registered; it comes back UP when it registers
            </span>
          )}
        </div>
      </div>
      <AccessNote access={startAccess} />

      <section aria-label="Host" className="rounded-lg border border-border bg-surface p-4">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-4 xl:grid-cols-6">
          <Fact label="IP">
            <span className="font-mono">{h.ip ?? "—"}</span>
          </Fact>
          <Fact label="Agent">
            <span className="break-all font-mono text-xs">{h.agentId}</span>
          </Fact>
          <Fact label="Tasks" testId="host-page-tasks">
            {formatCount(h.tasks)}
          </Fact>
          <Fact label="Registered">
            <RelativeTime at={new Date(h.registeredAt)} />
          </Fact>
          <Fact label="Last seen">
            <RelativeTime at={new Date(h.lastSeenAt)} />
          </Fact>
          <Fact label="Goal">{h.goalState}</Fact>
        </dl>
        <div className="mt-4 grid gap-4 md:grid-cols-4">
          <UsageBar
            used={h.allocated.cpu}
            total={h.cpu}
            label={`CPU of ${hostname}`}
            format={(n) => formatResource("cpu", n)}
          />
          <UsageBar
            used={h.allocated.memMb}
            total={h.memMb}
            label={`Memory of ${hostname}`}
            format={formatMb}
          />
          <UsageBar
            used={h.allocated.diskMb}
            total={h.diskMb}
            label={`Disk of ${hostname}`}
            format={formatMb}
          />
          {h.gpu > 0 && (
            <UsageBar
              used={h.allocated.gpu}
              total={h.gpu}
              label={`GPUs of ${hostname}`}
              format={(n) => formatResource("gpu", n)}
            />
          )}
        </div>
      </section>

      {inMaintenance && <EvictionProgress data={evictions.data} state={h.state} />}

      <div className="grid gap-4 xl:grid-cols-[2fr_1fr]">
        <HostTasks hostname={hostname} />
        <div className="space-y-4">
          <Card title="Attributes">
            {Object.keys(h.attributes).length === 0 ? (
              <p className="text-muted">The agent reports no attributes.</p>
            ) : (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 font-mono text-xs">
                {Object.entries(h.attributes).map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-muted">{k}</dt>
                    <dd>{v}</dd>
                  </div>
                ))}
              </dl>
            )}
          </Card>
          <MaintenanceHistory hostname={hostname} />
        </div>
      </div>

      <MaintenanceDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
}

/** Where the evictions stand: what is left, what is on its way, which job's SLA holds the rest. */
function EvictionProgress({ data, state }: { data: Evictions | undefined; state: string }) {
  return (
    <Card title="Eviction progress" testId="eviction-progress">
      {data === undefined ? (
        <p className="text-muted">Reading the host's tasks…</p>
      ) : state !== "DRAINING" ? (
        <p>
          No tasks left.{" "}
          {state === "DRAINED"
            ? "The host is DRAINED; it goes DOWN on the cluster next."
            : "The host is DOWN: in maintenance on the cluster."}
        </p>
      ) : (
        <div className="space-y-2">
          <p data-testid="eviction-tasks-left">
            <span className="font-semibold tabular-nums">{formatCount(data.tasksLeft)}</span> task
            {data.tasksLeft === 1 ? "" : "s"} left on the host: {formatCount(data.leaving)} leaving
            now, {formatCount(data.evictableNow)} to evict next
            {data.waits.length > 0 &&
              `, ${formatCount(data.waits.reduce((n, w) => n + w.waiting, 0))} waiting on their job's SLA`}
            .
          </p>
          {data.waits.length > 0 && (
            <ul className="space-y-1">
              {data.waits.map((w) => (
                <li key={w.jobId} className="text-xs" data-testid="eviction-wait">
                  <Link
                    href={`/jobs/${w.jobId}`}
                    className="font-medium text-accent hover:underline"
                  >
                    {w.jobName}
                  </Link>
                  : <span className="text-muted">{w.reason}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}

function HostTasks({ hostname }: { hostname: string }) {
  const trpc = useTRPC();
  const [cursor, setCursor] = useState<string | null>(null);
  const tasks = useQuery(
    trpc.hosts.tasks.queryOptions(
      { hostname, limit: TASKS_PAGE, cursor },
      { placeholderData: keepPreviousData },
    ),
  );
  const items = tasks.data?.items ?? [];
  return (
    <Card title="Tasks on this host" testId="host-tasks">
      {items.length === 0 ? (
        <EmptyState title="No tasks on this host">
          Tasks placed here appear as they start; evicted tasks leave this list.
        </EmptyState>
      ) : (
        <table className="w-full text-left">
          <caption className="sr-only">Tasks on {hostname}</caption>
          <thead>
            <tr className="border-b border-border text-xs text-muted">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Task
              </th>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                State
              </th>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Started
              </th>
              <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                CPU / Memory
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((t) => (
              <tr
                key={`${t.jobId}/${t.instanceId}`}
                className="border-b border-border last:border-0"
                data-testid="host-task"
              >
                <td className="py-1.5 pr-3">
                  <Link
                    href={`/jobs/${t.jobId}/tasks/${t.instanceId}`}
                    className="text-accent hover:underline"
                  >
                    {t.jobName}/{t.instanceId}
                  </Link>
                  <span className="text-xs text-muted"> run {t.runId}</span>
                </td>
                <td className="py-1.5 pr-3">
                  <span className="flex items-center gap-1.5" title={t.message ?? undefined}>
                    <span
                      aria-hidden
                      className={`size-2 rounded-full ${TONE_DOT[taskTone(t.state)]}`}
                    />
                    {t.state}
                    {t.reason === "HOST_MAINTENANCE" && (
                      <span className="text-xs text-muted">evicted</span>
                    )}
                  </span>
                </td>
                <td className="py-1.5 pr-3 text-xs">
                  {t.startedAt ? <RelativeTime at={new Date(t.startedAt)} /> : "—"}
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums text-xs">
                  {formatResource("cpu", t.cpu)} / {formatMb(t.memMb)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <KeysetPager
        count={items.length}
        noun="task"
        onFirstPage={cursor === null}
        nextCursor={tasks.data?.nextCursor}
        onNext={setCursor}
      />
    </Card>
  );
}

function MaintenanceHistory({ hostname }: { hostname: string }) {
  const trpc = useTRPC();
  const [cursor, setCursor] = useState<string | null>(null);
  const history = useQuery(
    trpc.hosts.maintenanceHistory.queryOptions(
      { hostname, limit: HISTORY_PAGE, cursor },
      { placeholderData: keepPreviousData },
    ),
  );
  const items = history.data?.items ?? [];
  return (
    <Card title="Maintenance history" testId="maintenance-history">
      {items.length === 0 ? (
        <p className="text-muted">This host has never been in maintenance.</p>
      ) : (
        <ol className="space-y-2">
          {items.map((e) => (
            <li key={e.id} className="text-xs" data-testid="maintenance-event">
              <p>
                <span className="font-medium">
                  {e.kind === "START"
                    ? "Maintenance started"
                    : e.kind === "COMPLETE"
                      ? "Maintenance completed"
                      : `${e.fromState} → ${e.toState}`}
                </span>{" "}
                <span className="text-muted">
                  by {e.actor} · <RelativeTime at={new Date(e.at)} />
                </span>
              </p>
              <p className="text-muted">{e.reason}</p>
            </li>
          ))}
        </ol>
      )}
      <KeysetPager
        count={items.length}
        noun="event"
        onFirstPage={cursor === null}
        nextCursor={history.data?.nextCursor}
        onNext={setCursor}
        order="newest first"
      />
    </Card>
  );
}
