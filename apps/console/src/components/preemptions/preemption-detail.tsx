"use client";
/**
 * One preemption opened from the list (`?open=<id>`): the rule in words, who
 * and where, the numbers per kind, whether the victim came back, and the
 * task's other preemptions. A side sheet: Escape or Close returns to the list.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Skeleton } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { useReturnFocus } from "@/components/ui/use-return-focus";
import { describeApiError } from "@/lib/api-errors";
import type { PreemptionRow } from "@/lib/api-types";
import { formatAbsolute } from "@/lib/time";
import { useTRPC } from "@/lib/trpc";
import { cameBackOf } from "./came-back";
import { Beneficiary, KindBadge, PoolLink, TaskLink, taskHref } from "./preemption-bits";
import { PreemptionNumbers } from "./preemption-numbers";
import { TaskPreemptions } from "./task-preemptions";

const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 py-1">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

function Body({ p, onFilterJob }: { p: PreemptionRow; onFilterJob: (jobId: string) => void }) {
  const back = cameBackOf(p);
  const inter = p.kind === "INTER_POOL";
  return (
    <div className="space-y-5">
      <p
        className="rounded-md border border-border bg-surface-2 px-3 py-2 leading-relaxed"
        data-testid="preemption-reason"
      >
        {p.reason}
      </p>
      <dl className="divide-y divide-border text-sm">
        <Fact label="When">
          <RelativeTime at={p.at} />
          <span className="text-muted"> · {formatAbsolute(p.at)}</span>
        </Fact>
        <Fact label="Victim">
          <TaskLink task={p.victim} />
          <span className="text-muted">
            {" "}
            run {p.victim.runId} · priority {p.victim.priority} · {p.victim.state} →{" "}
            {p.victim.stateAfter}
          </span>
        </Fact>
        <Fact label="Victim pool">
          <PoolLink path={p.victim.poolPath} />
        </Fact>
        <Fact label={inter ? "For" : "For the waiting gang"}>
          <Beneficiary p={p} all />
        </Fact>
        <Fact label="Decided at">
          {p.level ? (
            <>
              <span className="font-mono">{p.level}</span>
              <span className="text-muted">
                {inter
                  ? " — the common ancestor whose division moved the resources"
                  : " — within the pool, by priority"}
              </span>
            </>
          ) : (
            <span className="text-muted">
              no pool waited and none took it: the pool&apos;s entitlement shrank with the cluster
            </span>
          )}
        </Fact>
        <Fact label="Victim order">
          {ordinal(p.numbers.rank)} of the pool&apos;s candidates
          <span className="text-muted">
            {" "}
            (admitted before running, lowest priority, most recently started)
          </span>
        </Fact>
        <Fact label="Came back">
          <span data-testid="detail-came-back" data-tone={back.tone}>
            {back.detail}
          </span>
        </Fact>
      </dl>
      <section aria-label="Numbers">
        <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
          The numbers
        </h3>
        <PreemptionNumbers p={p} />
      </section>
      <nav aria-label="Go to" className="flex flex-wrap gap-3 text-sm">
        <Link
          href={taskHref(p.victim.jobId, p.victim.instanceId)}
          className="text-accent hover:underline"
        >
          Open the task →
        </Link>
        <button
          type="button"
          onClick={() => onFilterJob(p.victim.jobId)}
          className="text-accent hover:underline"
        >
          All preemptions of {p.victim.jobName}
        </button>
      </nav>
      <section aria-label="This task's preemptions">
        <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
          {p.victim.jobName}/{p.victim.instanceId}&apos;s preemptions
        </h3>
        <TaskPreemptions jobId={p.victim.jobId} instanceId={p.victim.instanceId} current={p.id} />
      </section>
    </div>
  );
}

export function PreemptionDetail({
  id,
  row,
  onClose,
  onFilterJob,
}: {
  id: string;
  /** The row from the list, shown at once while the details load. */
  row: PreemptionRow | undefined;
  onClose: () => void;
  onFilterJob: (jobId: string) => void;
}) {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.preemptions.get.queryOptions({ id }, row ? { initialData: row } : {}),
  );
  const p = query.data;
  // Opened from code, by a row (Enter) or its time (a click): Escape or Close gives it the focus back.
  const returnFocus = useReturnFocus(true);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <Dialog.Content
          onCloseAutoFocus={returnFocus}
          className="fixed inset-y-0 right-0 z-50 flex w-[44rem] max-w-[95vw] flex-col border-l border-border bg-surface shadow-xl"
          data-testid="preemption-detail"
          aria-describedby={undefined}
        >
          <header className="flex items-start justify-between gap-3 border-b border-border px-5 py-3">
            <div className="min-w-0">
              <Dialog.Title className="text-base font-semibold">
                {p ? (
                  <>
                    {p.victim.jobName}/{p.victim.instanceId} preempted
                  </>
                ) : (
                  `Preemption ${id}`
                )}
              </Dialog.Title>
              {p && (
                <div className="mt-1 flex items-center gap-2 text-xs text-muted">
                  <KindBadge kind={p.kind} />
                  <span>preemption #{p.id}</span>
                </div>
              )}
            </div>
            <Dialog.Close
              className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-fg"
              aria-label="Close"
            >
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
            {p ? (
              <Body p={p} onFilterJob={onFilterJob} />
            ) : query.isError ? (
              <Notice tone="bad" title={`Preemption ${id} could not be shown`}>
                {describeApiError(query.error)}
              </Notice>
            ) : (
              <div className="space-y-2">
                <Skeleton className="h-12 w-full" />
                <Skeleton className="h-40 w-full" />
              </div>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
