"use client";
/**
 * Asks before a palette action runs, in the words of the page's own button
 * (job page: Stop / Start / Restart; hosts page: Drain / Bring up), then runs
 * it as the signed-in person; the API decides and audits it.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { INPUT_CLASS } from "@/components/ui/form-field";
import { formatCount } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import type { PaletteAction } from "./palette-actions";

type Confirmable = Exclude<PaletteAction, { kind: "open" }>;

const JOB_WORDS = {
  stop: {
    title: (name: string) => `Stop ${name}?`,
    confirm: "Stop job",
    body: (n: number) =>
      `Its ${formatCount(n)} instance${n === 1 ? " is" : "s are"} killed and the job ends KILLED. It can be started again.`,
    done: "stopping",
  },
  start: {
    title: (name: string) => `Start ${name} again?`,
    confirm: "Start job",
    body: () => "Instances that ended get a new run.",
    done: "starting",
  },
  restart: {
    title: (name: string) => `Restart every instance of ${name}?`,
    confirm: "Restart job",
    body: () => "Every instance gets a new run; running ones are killed first.",
    done: "restarting",
  },
} as const;

export function PaletteConfirm({
  action,
  onDone,
}: {
  action: PaletteAction | null;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const [reason, setReason] = useState("");
  const onError = (err: { message: string }) => toast.error(err.message);
  const jobDone = {
    onSuccess: (r: { instances: number[]; version: number }) => {
      if (action?.kind === "job")
        toast.success(`${action.job.name}: ${JOB_WORDS[action.verb].done}`, {
          description: `${formatCount(r.instances.length)} instance${r.instances.length === 1 ? "" : "s"} changed · version ${r.version}`,
        });
      onDone();
    },
    onError,
  };
  const hostDone = (words: string) => ({
    onSuccess: (h: { hostname: string; state: string }) => {
      toast.success(`${h.hostname} is ${h.state}`, { description: words });
      setReason("");
      onDone();
    },
    onError,
  });
  const stop = useMutation(trpc.jobs.stop.mutationOptions(jobDone));
  const start = useMutation(trpc.jobs.start.mutationOptions(jobDone));
  const restart = useMutation(trpc.jobs.restart.mutationOptions(jobDone));
  const startMaintenance = useMutation(
    trpc.hosts.startMaintenance.mutationOptions(
      hostDone("Nothing new is placed there; its tasks move elsewhere."),
    ),
  );
  const completeMaintenance = useMutation(
    trpc.hosts.completeMaintenance.mutationOptions(hostDone("It takes new work again.")),
  );
  const busy = [stop, start, restart, startMaintenance, completeMaintenance].some(
    (m) => m.isPending,
  );

  const a = action && action.kind !== "open" ? (action as Confirmable) : null;
  const words =
    a?.kind === "job"
      ? {
          title: JOB_WORDS[a.verb].title(a.job.name),
          confirm: JOB_WORDS[a.verb].confirm,
          body: <p>{JOB_WORDS[a.verb].body(a.job.instanceCount)}</p>,
          tone: a.verb === "stop" ? ("danger" as const) : ("default" as const),
        }
      : a?.kind === "host"
        ? a.verb === "startMaintenance"
          ? {
              title: `Start maintenance on ${a.host.hostname}?`,
              confirm: "Start maintenance",
              body: (
                <>
                  <p>
                    Nothing new is placed on it from now on. Its tasks are moved to other hosts,
                    never taking a job below its SLA; it goes DOWN when none are left.
                  </p>
                  <label className="mt-3 flex flex-col gap-1 text-fg">
                    <span className="text-xs text-muted">Reason (kept in the audit log)</span>
                    <input
                      className={INPUT_CLASS}
                      value={reason}
                      maxLength={500}
                      onChange={(e) => setReason(e.target.value)}
                      placeholder="e.g. disk replacement"
                    />
                  </label>
                </>
              ),
              tone: "danger" as const,
            }
          : {
              title: `Complete maintenance on ${a.host.hostname}?`,
              confirm: "Complete maintenance",
              body: <p>New tasks may be placed on it again.</p>,
              tone: "default" as const,
            }
        : null;

  const confirm = () => {
    if (!a) return;
    if (a.kind === "job") {
      const ref = { id: a.job.id, version: a.job.version };
      ({ stop, start, restart })[a.verb].mutate(ref);
    } else if (a.verb === "startMaintenance")
      startMaintenance.mutate({ hostname: a.host.hostname, reason });
    else completeMaintenance.mutate({ hostname: a.host.hostname });
  };

  return (
    <ConfirmDialog
      open={a !== null}
      onOpenChange={(open) => !open && onDone()}
      title={words?.title ?? ""}
      confirmLabel={words?.confirm ?? ""}
      tone={words?.tone ?? "default"}
      busy={busy}
      onConfirm={confirm}
    >
      {words?.body}
    </ConfirmDialog>
  );
}
