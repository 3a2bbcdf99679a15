/**
 * Ids and paths that keep what tells them apart (issue #19 item 7): a
 * volume id's end (its job and instance) stays visible when the id is cut,
 * and a pool path wraps only between its segments, never inside a name.
 */
import { Fragment } from "react";

/** Characters of the end that always show. */
const TAIL = 14;

/** A long id cut in the middle: "peloton-3f2a9c…b7-0-volume-3". The whole id is its title. */
export function MiddleCutId({ id, className = "" }: { id: string; className?: string }) {
  if (id.length <= TAIL * 2) return <span className={`font-mono ${className}`}>{id}</span>;
  return (
    <span className={`flex min-w-0 font-mono ${className}`} title={id}>
      <span className="truncate">{id.slice(0, -TAIL)}</span>
      <span className="shrink-0">{id.slice(-TAIL)}</span>
    </span>
  );
}

/** A pool path that may wrap after a "/" but not inside a segment. */
export function PoolPathText({ path, className = "" }: { path: string; className?: string }) {
  const segments = path.split("/").filter((s) => s.length > 0);
  if (segments.length === 0) return <span className={`font-mono ${className}`}>/</span>;
  return (
    <span className={`font-mono ${className}`} data-pool-path={path}>
      {segments.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a segment's depth is its identity in the path
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span className="whitespace-nowrap">/{s}</span>
        </Fragment>
      ))}
    </span>
  );
}
