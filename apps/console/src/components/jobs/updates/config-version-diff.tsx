"use client";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { Skeleton } from "@/components/ui/card";
import { INPUT_CLASS } from "@/components/ui/form-field";
import { LoadError } from "@/components/ui/load-error";
import { useTRPC } from "@/lib/trpc";
import { useSearchParam } from "@/lib/url-state";
import { SideBySideDiff } from "./side-by-side-diff";

/** Which two versions to compare: from the URL, else the one before the current and the current. */
export function pickVersions(
  versions: readonly number[],
  current: number,
  from: string,
  to: string,
): { from: number; to: number } {
  const has = (v: number) => versions.includes(v);
  const right = has(Number(to)) ? Number(to) : current;
  const earlier = versions.filter((v) => v < right);
  const left = has(Number(from)) ? Number(from) : earlier.length ? Math.max(...earlier) : right;
  return { from: left, to: right };
}

/**
 * Any two of the job's configuration versions side by side (`?from=&to=` in
 * the URL, so a comparison is a link). Every version is kept (docs/updates.md).
 */
export function ConfigVersionDiff({ jobId, current }: { jobId: string; current: number }) {
  const trpc = useTRPC();
  const fromId = useId();
  const toId = useId();
  const [fromParam, setFrom] = useSearchParam<string>("from", "");
  const [toParam, setTo] = useSearchParam<string>("to", "");
  const versions = useQuery(trpc.jobs.configVersions.queryOptions({ id: jobId }));
  const list = versions.data?.map((v) => v.version) ?? [current];
  const { from, to } = pickVersions(list, current, fromParam, toParam);
  const left = useQuery(trpc.jobs.configVersion.queryOptions({ id: jobId, version: from }));
  const right = useQuery(trpc.jobs.configVersion.queryOptions({ id: jobId, version: to }));

  if (versions.isError)
    return (
      <LoadError
        what="The configuration versions"
        error={versions.error}
        onRetry={() => versions.refetch()}
      />
    );
  const label = (v: number) => {
    const meta = versions.data?.find((x) => x.version === v);
    return `Version ${v}${v === current ? " (current)" : ""}${meta?.createdBy ? ` · ${meta.createdBy}` : ""}`;
  };
  const options = (versions.data ?? []).map((v) => (
    <option key={v.version} value={v.version}>
      {label(v.version)}
    </option>
  ));

  return (
    <section aria-labelledby={`${fromId}-title`} className="space-y-3" data-testid="version-diff">
      <div className="flex flex-wrap items-end gap-3">
        <h3 id={`${fromId}-title`} className="mr-auto text-sm font-semibold">
          Compare configuration versions
        </h3>
        <label htmlFor={fromId} className="flex flex-col gap-1 text-xs text-muted">
          From
          <select
            id={fromId}
            className={`${INPUT_CLASS} w-56 text-fg`}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="diff-from"
          >
            {options}
          </select>
        </label>
        <label htmlFor={toId} className="flex flex-col gap-1 text-xs text-muted">
          To
          <select
            id={toId}
            className={`${INPUT_CLASS} w-56 text-fg`}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            data-testid="diff-to"
          >
            {options}
          </select>
        </label>
      </div>
      {left.isError || right.isError ? (
        <LoadError
          what="A configuration version"
          error={(left.error ?? right.error)!}
          onRetry={() => {
            void left.refetch();
            void right.refetch();
          }}
        />
      ) : left.data && right.data ? (
        <SideBySideDiff
          before={left.data.yaml}
          after={right.data.yaml}
          beforeLabel={label(from)}
          afterLabel={label(to)}
        />
      ) : (
        <Skeleton className="h-48 w-full" />
      )}
    </section>
  );
}
