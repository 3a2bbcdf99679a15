"use client";
/**
 * The history as a dense table: when, which kind, the victim and its pool,
 * for whom, where in the tree, the rule in words, whether it came back. A
 * row opens its details (click, or Enter on a focused row).
 */
import { DataTable, tableColumns } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/relative-time";
import type { PreemptionRow } from "@/lib/api-types";
import { Beneficiary, CameBackCell, KindBadge, PoolLink, TaskLink } from "./preemption-bits";

const col = tableColumns<PreemptionRow>();

function columns(onOpen: (p: PreemptionRow) => void) {
  return [
    col.display({
      id: "time",
      header: "Time",
      // The time opens the details (so does a click anywhere on the row, or Enter).
      // Its name is the time seen, then which preemption (hidden text, not an
      // aria-label): a name that starts with the visible words is what a
      // voice-control user can say (WCAG 2.5.3).
      cell: ({ row }) => (
        <button
          type="button"
          onClick={() => onOpen(row.original)}
          className="whitespace-nowrap text-left text-muted hover:text-fg hover:underline"
        >
          <RelativeTime at={row.original.at} />
          <span className="sr-only">
            : details of the preemption of {row.original.victim.jobName}/
            {row.original.victim.instanceId}
          </span>
        </button>
      ),
    }),
    col.display({
      id: "kind",
      header: "Kind",
      cell: ({ row }) => <KindBadge kind={row.original.kind} />,
    }),
    col.display({
      id: "victim",
      header: "Victim task",
      cell: ({ row }) => {
        const v = row.original.victim;
        return (
          <div className="whitespace-nowrap">
            <TaskLink task={v} />
            <p className="text-xs text-muted">
              run {v.runId} · priority {v.priority} ·{" "}
              {v.state === "RUNNING" ? "killed" : "sent back"}
            </p>
          </div>
        );
      },
    }),
    col.display({
      id: "pool",
      header: () => <span className="whitespace-nowrap">Victim pool</span>,
      cell: ({ row }) => <PoolLink path={row.original.victim.poolPath} />,
    }),
    col.display({
      id: "beneficiary",
      header: "For",
      cell: ({ row }) => <Beneficiary p={row.original} />,
    }),
    col.display({
      id: "level",
      header: "Level",
      cell: ({ row }) => <span className="font-mono text-xs">{row.original.level ?? "—"}</span>,
    }),
    col.display({
      id: "reason",
      header: "Reason",
      cell: ({ row }) => (
        <p className="line-clamp-3 min-w-40 text-xs" title={row.original.reason}>
          {row.original.reason}
        </p>
      ),
    }),
    col.display({
      id: "back",
      header: () => <span className="whitespace-nowrap">Came back</span>,
      cell: ({ row }) => <CameBackCell p={row.original} stacked />,
    }),
  ];
}

export function PreemptionsTable({
  rows,
  openId,
  onOpen,
}: {
  rows: readonly PreemptionRow[];
  openId: string | null;
  onOpen: (p: PreemptionRow) => void;
}) {
  return (
    <div className="rounded-lg border border-border bg-surface">
      <DataTable
        caption="Preemptions, newest first"
        data={rows}
        columns={columns(onOpen)}
        getRowId={(p) => p.id}
        onOpen={onOpen}
        estimatedRowHeight={56}
        testId="preemptions-table"
        rowProps={(p) => ({
          "data-preemption": p.id,
          "data-kind": p.kind,
          "data-victim-pool": p.victim.poolPath,
          "aria-current": p.id === openId ? "true" : undefined,
          className: `cursor-pointer border-b border-border last:border-0 hover:bg-surface-2/60 focus-visible:bg-surface-2 focus-visible:outline-offset-[-2px] ${p.id === openId ? "bg-surface-2" : ""}`,
          onClick: (e) => {
            // Links and buttons inside the row do their own thing.
            if ((e.target as HTMLElement).closest("a,button")) return;
            onOpen(p);
          },
        })}
      />
    </div>
  );
}
