"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { useEffect } from "react";
import {
  defaultLogFile,
  LOG_FILES,
  type LogFile,
  LogFileToggle,
  LogViewer,
  logTargetKey,
} from "@/components/tasks/log-viewer";
import { Button } from "@/components/ui/button";
import type { JobDetail, TaskListInput } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";
import { StateBadge } from "../state-badge";

const SHOW = ["all", "running", "failed", "succeeded"] as const;
type Show = (typeof SHOW)[number];
const STATES_OF: Record<Show, NonNullable<TaskListInput["states"]>> = {
  all: [],
  running: ["RUNNING"],
  failed: ["FAILED", "LOST"],
  succeeded: ["SUCCEEDED"],
};

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return (
    !!el &&
    (el.tagName === "INPUT" ||
      el.tagName === "SELECT" ||
      el.tagName === "TEXTAREA" ||
      el.isContentEditable)
  );
}

/**
 * The logs of every instance of a job, one at a time: pick an instance (or
 * only the running, failed or succeeded ones) and step through them with
 * ‹ › or the [ and ] keys; the log follows the instance's current run.
 */
export function JobLogs({ job }: { job: JobDetail }) {
  const trpc = useTRPC();
  const [show, setShow] = useSearchParam<Show>("show", "all", SHOW);
  const [instanceText, setInstance] = useSearchParam<string>("instance", "");
  const list = useQuery(
    trpc.tasks.list.queryOptions(
      { jobId: job.id, states: STATES_OF[show], limit: 1000 },
      { placeholderData: keepPreviousData },
    ),
  );
  const instances = list.data?.items ?? [];
  const wanted = instanceText === "" ? undefined : Number(instanceText);
  const current = instances.find((t) => t.instanceId === wanted) ?? instances[0];
  const at = current ? instances.indexOf(current) : -1;
  // A failed instance opens on stderr, where its reason is.
  const [file, setFile] = useSearchParam<LogFile>(
    "file",
    defaultLogFile(current?.state),
    LOG_FILES,
  );
  const step = (by: number) => {
    const nextTask = instances[(at + by + instances.length) % instances.length];
    if (nextTask) setInstance(String(nextTask.instanceId));
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return;
      if (e.key === "[") step(-1);
      else if (e.key === "]") step(1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  return (
    <div className="space-y-3" data-testid="job-logs">
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex items-center gap-1.5 text-xs text-muted">
          Show
          <select
            value={show}
            onChange={(e) => {
              setShow(e.target.value as Show);
              setInstance(null);
            }}
            className="h-8 rounded-md border border-border bg-surface px-2 text-fg"
          >
            {SHOW.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <Button
          size="sm"
          onClick={() => step(-1)}
          disabled={instances.length < 2}
          aria-label="Previous instance"
          title="Previous instance ([)"
        >
          <ChevronLeft className="size-4" aria-hidden />
        </Button>
        <select
          aria-label="Instance"
          value={current ? String(current.instanceId) : ""}
          onChange={(e) => setInstance(e.target.value)}
          className="h-8 min-w-56 rounded-md border border-border bg-surface px-2"
        >
          {instances.map((t) => (
            <option key={t.instanceId} value={t.instanceId}>
              #{t.instanceId} · {t.state}
              {t.hostname ? ` · ${t.hostname}` : ""}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          onClick={() => step(1)}
          disabled={instances.length < 2}
          aria-label="Next instance"
          title="Next instance (])"
        >
          <ChevronRight className="size-4" aria-hidden />
        </Button>
        <LogFileToggle value={file} onChange={setFile} />
        {current && (
          <span className="ml-auto flex items-center gap-2 text-xs">
            <StateBadge state={current.state} goal={current.goalState} />
            <span className="text-muted">run {current.runId}</span>
            <Link
              href={`/jobs/${job.id}/tasks/${current.instanceId}#logs`}
              className="text-accent hover:underline"
            >
              Open instance
            </Link>
          </span>
        )}
      </div>
      {current ? (
        <LogViewer
          key={logTargetKey({
            jobId: job.id,
            instance: current.instanceId,
            run: current.runId,
            file,
          })}
          target={{ jobId: job.id, instance: current.instanceId, run: current.runId, file }}
          height="h-[60vh]"
        />
      ) : (
        <p className="text-muted">
          {list.isPending ? "Loading instances…" : `No ${show} instance.`}
        </p>
      )}
    </div>
  );
}
