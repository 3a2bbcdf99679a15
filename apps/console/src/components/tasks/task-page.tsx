"use client";
import { type TaskState, WAITING_TASK_STATES } from "@peloton/api/schemas";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { Fact } from "@/components/ui/fact";
import { LiveIndicator } from "@/components/ui/live-indicator";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import type { TaskDetail } from "@/lib/api-types";
import { formatDuration, formatMb, formatResource } from "@/lib/format";
import { poolHref } from "@/lib/pools";
import { isCrashLooping } from "@/lib/states";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";
import { useNow } from "@/lib/use-now";
import { StateBadge } from "../jobs/state-badge";
import { TaskPreemptions } from "../preemptions/task-preemptions";
import {
  defaultLogFile,
  LOG_FILES,
  type LogFile,
  LogFileToggle,
  LogViewer,
  logTargetKey,
} from "./log-viewer";
import { TaskActions } from "./task-actions";
import { HealthLine } from "./task-health";
import { TaskRuns } from "./task-runs";
import { TaskVolumeFact } from "./task-volume";

const WAITING = new Set<TaskState>(WAITING_TASK_STATES);
/** Ended not as asked: the task failed, or the cluster lost it. */
const ENDED_BADLY = new Set<TaskState>(["FAILED", "LOST"]);

/** Why the instance is where it is, when that is what the reader came for: waiting, or failed. */
function Why({ task }: { task: TaskDetail }) {
  if (!task.reason && !task.message) return null;
  // Failing, not waiting: the message says how the last run ended and when the next starts.
  if (isCrashLooping(task))
    return (
      <Notice tone="bad" title="Failing: waiting out its restart backoff" testId="task-why">
        {task.reason && <span className="mr-1.5 font-mono">{task.reason}</span>}
        {task.message}
      </Notice>
    );
  if (WAITING.has(task.state))
    return (
      <Notice tone="warn" title={`Waiting (${task.state})`} testId="task-why">
        {task.reason && <span className="mr-1.5 font-mono">{task.reason}</span>}
        {task.message}
      </Notice>
    );
  if (ENDED_BADLY.has(task.state))
    return (
      <Notice
        // LOST: the cluster lost the run (agent, restart); it is not counted against the task.
        tone={task.state === "LOST" ? "warn" : "bad"}
        title={`Run ${task.runId} ${task.state.toLowerCase()}`}
        testId="task-why"
      >
        {task.reason && <span className="mr-1.5 font-mono">{task.reason}</span>}
        {task.message}
        {task.failureCount > 0 &&
          ` · ${task.failureCount} failure${task.failureCount === 1 ? "" : "s"} so far`}
      </Notice>
    );
  return null;
}

/** `/jobs/<id>/tasks/<instance>`: one instance — where and how it runs, its runs and their transitions, its logs live. */
export function TaskPage({ initial }: { initial: TaskDetail }) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.tasks.get.queryOptions(
      { jobId: initial.jobId, instance: initial.instanceId },
      { initialData: initial },
    ),
  );
  const t = query.data;
  const now = useNow(1000);
  const [runText, setRun] = useSearchParam<string>("run", "");
  const logRun = t.runs.find((r) => String(r.runId) === runText)?.runId ?? t.runId;
  // A failed run opens on stderr, where its reason is.
  const [file, setFile] = useSearchParam<LogFile>(
    "file",
    defaultLogFile(t.runs.find((r) => r.runId === logRun)?.state),
    LOG_FILES,
  );
  const ports = Object.entries(t.ports);
  const command = t.config.command;

  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="flex flex-wrap gap-1 text-muted">
        <Link href="/jobs" className="hover:text-fg hover:underline">
          Jobs
        </Link>
        /
        <Link href={`/jobs/${t.jobId}`} className="hover:text-fg hover:underline">
          {t.job.name}
        </Link>
        / <span className="text-fg">instance {t.instanceId}</span>
      </nav>

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-lg font-semibold">
            <span>
              {t.job.name}
              <span className="text-muted">/</span>
              {t.instanceId}
            </span>
            <span className="text-sm font-normal">
              <StateBadge
                state={t.state}
                goal={t.goalState}
                failing={isCrashLooping(t)}
                testId="task-state"
              />
            </span>
          </h1>
          <p className="text-xs text-muted">
            {t.name !== t.job.name && <span className="mr-2 text-fg">{t.name}</span>}
            <span className="font-mono">{t.clusterTaskId ?? "not launched yet"}</span>
          </p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <LiveIndicator updatedAt={query.dataUpdatedAt} failing={query.isError} />
          <TaskActions task={t} />
        </div>
      </div>

      <Why task={t} />

      <section aria-label="Instance" className="rounded-lg border border-border bg-surface p-4">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-4 xl:grid-cols-6">
          <Fact label="Host" testId="task-host">
            {t.hostname ? (
              <Link
                href={`/hosts/${encodeURIComponent(t.hostname)}`}
                className="font-mono hover:underline"
              >
                {t.hostname}
              </Link>
            ) : (
              <span className="text-muted">none yet</span>
            )}
          </Fact>
          <Fact label="Health" testId="task-health">
            <HealthLine task={t} />
          </Fact>
          <Fact label="Started">
            {t.startedAt ? (
              <RelativeTime at={t.startedAt} />
            ) : (
              <span className="text-muted">—</span>
            )}
          </Fact>
          <Fact label="Run time">
            {t.startedAt && now !== null
              ? formatDuration((t.finishedAt?.getTime() ?? now) - t.startedAt.getTime())
              : "—"}
          </Fact>
          <Fact label="Run">
            {t.runId}
            {t.desiredRun > t.runId && (
              <span className="text-muted"> (run {t.desiredRun} asked for)</span>
            )}
            {t.failureCount > 0 && <span className="text-bad"> · {t.failureCount} failed</span>}
          </Fact>
          <Fact label="Priority">
            {t.priority}
            <span className="text-muted">
              {" "}
              · {t.preemptible ? "preemptible" : "not preemptible"}
            </span>
          </Fact>
          <Fact label="Pool">
            <Link href={poolHref(t.job.poolPath)} className="font-mono hover:underline">
              {t.job.poolPath}
            </Link>
          </Fact>
          <Fact label="Resources">
            {formatResource("cpu", t.cpu)} · {formatMb(t.memMb)} memory · {formatMb(t.diskMb)} disk
            {t.gpu > 0 && ` · ${formatResource("gpu", t.gpu)}`}
          </Fact>
          <Fact label="Ports" testId="task-ports">
            {ports.length === 0 ? (
              <span className="text-muted">none</span>
            ) : (
              <span className="font-mono text-xs">
                {ports.map(([name, port]) => `${name}=${port}`).join(" ")}
              </span>
            )}
          </Fact>
          <Fact label="Volume" testId="task-volume">
            <TaskVolumeFact task={t} />
          </Fact>
          <Fact label="Command" className="col-span-2 md:col-span-3">
            <code className="block truncate font-mono text-xs" title={command?.value}>
              {command?.value || <span className="text-muted">(the container&apos;s own)</span>}
            </code>
          </Fact>
        </dl>
      </section>

      <section
        id="logs"
        aria-label="Logs"
        className="scroll-mt-16 rounded-lg border border-border bg-surface"
      >
        <header className="flex flex-wrap items-center gap-3 border-b border-border px-4 py-2.5">
          <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">Logs</h2>
          <LogFileToggle value={file} onChange={setFile} />
          {t.runs.length > 1 && (
            <label className="flex items-center gap-1.5 text-xs text-muted">
              Run
              <select
                value={String(logRun)}
                onChange={(e) => setRun(e.target.value === String(t.runId) ? null : e.target.value)}
                className="h-7 rounded-md border border-border bg-surface px-1.5 text-fg"
              >
                {t.runs.map((r) => (
                  <option key={r.runId} value={r.runId}>
                    run {r.runId} · {r.state}
                    {r.runId === t.runId ? " (current)" : ""}
                  </option>
                ))}
              </select>
            </label>
          )}
        </header>
        <div className="p-4">
          <LogViewer
            key={logTargetKey({ jobId: t.jobId, instance: t.instanceId, run: logRun, file })}
            target={{ jobId: t.jobId, instance: t.instanceId, run: logRun, file }}
          />
        </div>
      </section>
      <Card title="Preemptions">
        <TaskPreemptions jobId={t.jobId} instanceId={t.instanceId} />
      </Card>

      <Card title={`Runs (${t.runs.length})`}>
        <TaskRuns task={t} />
      </Card>
    </div>
  );
}
