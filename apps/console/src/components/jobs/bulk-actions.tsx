"use client";
import { isTerminalJobState } from "@peloton/api/schemas";
import { useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, RotateCcw, Square, XCircle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useAccessDecider } from "@/components/identity/use-access";
import { usePoolFactsByPath } from "@/components/identity/use-pool-facts";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { JobRow } from "@/lib/api-types";
import { useTRPCClient } from "@/lib/trpc";

type Verb = "stop" | "restart";

interface Outcome {
  id: string;
  name: string;
  ok: boolean;
  text: string;
}

const WORDS: Record<Verb, { title: string; button: string; done: string }> = {
  stop: { title: "Stop", button: "Stop jobs", done: "stopped" },
  restart: { title: "Restart", button: "Restart jobs", done: "restarted" },
};

/**
 * Stop or restart the selected jobs: confirmed, sent one by one (each job
 * is its own audited action), and each one's result reported — a job that
 * was changed meanwhile or is being deleted says so, the others go on.
 */
export function BulkActions({ jobs, onClear }: { jobs: JobRow[]; onClear: () => void }) {
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [verb, setVerb] = useState<Verb | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcomes, setOutcomes] = useState<{ verb: Verb; items: Outcome[] } | null>(null);
  const decide = useAccessDecider();
  const facts = usePoolFactsByPath();
  // Each job by the signed-in person's rights in its pool (the API decides the same per job).
  const refusal = (job: JobRow, verb: Verb): string | undefined => {
    const pool = facts?.get(job.poolPath) ?? null;
    const access = decide(pool && { kind: "job.act", verb, pool });
    return access.allowed ? undefined : access.reason;
  };
  const inState = {
    stop: jobs.filter((j) => !isTerminalJobState(j.state) && j.goalState !== "KILLED"),
    restart: jobs.filter((j) => j.goalState !== "DELETED"),
  };
  const stoppable = inState.stop.filter((j) => !refusal(j, "stop"));
  const restartable = inState.restart.filter((j) => !refusal(j, "restart"));
  /** Why none of the selected jobs can take the verb: their state, or the first refusal. */
  const whyNone = (verb: Verb, stateReason: string): string => {
    const refused = inState[verb].map((j) => refusal(j, verb)).find(Boolean);
    return inState[verb].length === 0 ? stateReason : (refused ?? stateReason);
  };
  const targets = verb === "stop" ? stoppable : restartable;

  const run = async (v: Verb) => {
    setBusy(true);
    const items: Outcome[] = [];
    for (const job of v === "stop" ? stoppable : restartable) {
      try {
        const r = await client.jobs[v].mutate({ id: job.id, version: job.version });
        items.push({
          id: job.id,
          name: job.name,
          ok: true,
          text: `${WORDS[v].done}: ${r.instances.length} instance${r.instances.length === 1 ? "" : "s"} changed`,
        });
      } catch (err) {
        items.push({ id: job.id, name: job.name, ok: false, text: (err as Error).message });
      }
    }
    setBusy(false);
    setVerb(null);
    setOutcomes({ verb: v, items });
    const failed = items.filter((i) => !i.ok).length;
    if (failed === 0)
      toast.success(`${items.length} job${items.length === 1 ? "" : "s"} ${WORDS[v].done}`);
    else toast.error(`${failed} of ${items.length} jobs could not be ${WORDS[v].done}`);
    onClear();
    void queryClient.invalidateQueries();
  };

  return (
    <>
      {jobs.length > 0 && (
        <section
          className="flex items-center gap-3 rounded-lg border border-accent/40 bg-accent/5 px-3 py-2"
          aria-label="Selected jobs"
          data-testid="bulk-actions"
        >
          <span className="font-medium">
            {jobs.length} job{jobs.length === 1 ? "" : "s"} selected
          </span>
          <Button
            size="sm"
            variant="danger"
            onClick={() => setVerb("stop")}
            disabledReason={
              stoppable.length === 0
                ? whyNone("stop", "Every selected job has ended or is being stopped already")
                : undefined
            }
          >
            <Square className="size-3.5" aria-hidden />
            Stop{stoppable.length < jobs.length ? ` ${stoppable.length}` : ""}
          </Button>
          <Button
            size="sm"
            onClick={() => setVerb("restart")}
            disabledReason={
              restartable.length === 0
                ? whyNone("restart", "Every selected job is being deleted")
                : undefined
            }
          >
            <RotateCcw className="size-3.5" aria-hidden />
            Restart{restartable.length < jobs.length ? ` ${restartable.length}` : ""}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </section>
      )}

      {outcomes && (
        <section
          role="status"
          aria-label={`${WORDS[outcomes.verb].title} results`}
          data-testid="bulk-results"
          className="rounded-lg border border-border bg-surface px-3 py-2"
        >
          <div className="flex items-center justify-between">
            <p className="font-medium">
              {WORDS[outcomes.verb].title}: {outcomes.items.filter((i) => i.ok).length} of{" "}
              {outcomes.items.length} done
            </p>
            <Button size="sm" variant="ghost" onClick={() => setOutcomes(null)}>
              Dismiss
            </Button>
          </div>
          <ul className="mt-1 space-y-0.5 text-xs">
            {outcomes.items.map((o) => (
              <li key={o.id} className="flex items-start gap-1.5" data-job={o.id} data-ok={o.ok}>
                {o.ok ? (
                  <CheckCircle2 className="mt-px size-3.5 shrink-0 text-ok" aria-label="done" />
                ) : (
                  <XCircle className="mt-px size-3.5 shrink-0 text-bad" aria-label="failed" />
                )}
                <span className="font-medium">{o.name}</span>
                <span className="text-muted">{o.text}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <ConfirmDialog
        open={verb !== null}
        onOpenChange={(open) => !open && !busy && setVerb(null)}
        title={
          verb
            ? `${WORDS[verb].title} ${targets.length} job${targets.length === 1 ? "" : "s"}?`
            : ""
        }
        confirmLabel={verb ? WORDS[verb].button : ""}
        tone={verb === "stop" ? "danger" : "default"}
        busy={busy}
        onConfirm={() => verb && void run(verb)}
      >
        <p>
          {verb === "stop"
            ? "Every instance of these jobs is killed; each job ends KILLED and can be started again."
            : "Every instance of these jobs gets a new run; running ones are killed first."}
        </p>
        <ul className="mt-2 max-h-40 overflow-auto text-xs">
          {targets.map((j) => (
            <li key={j.id} className="truncate">
              <span className="font-medium text-fg">{j.name}</span> · {j.state} · {j.instanceCount}{" "}
              instances
            </li>
          ))}
        </ul>
        {jobs.length > targets.length && (
          <p className="mt-2 text-xs">
            {jobs.length - targets.length} selected job
            {jobs.length - targets.length === 1 ? " is" : "s are"} left out:{" "}
            {verb === "stop" ? "already ended or being stopped" : "being deleted"}, or in a pool
            where you may not {verb} jobs.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
