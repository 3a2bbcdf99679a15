import Link from "next/link";
import type { EntitlementMove } from "@/lib/api-types";
import { formatResource, KIND_LABEL } from "@/lib/format";
import { DISPLAY_KINDS, poolHref } from "@/lib/pools";

const EPSILON = 0.0009;

function Delta({
  kind,
  before,
  after,
}: {
  kind: (typeof DISPLAY_KINDS)[number];
  before: number | null;
  after: number | null;
}) {
  if (before !== null && after !== null && Math.abs(after - before) <= EPSILON)
    return <span className="text-muted">—</span>;
  const d = (after ?? 0) - (before ?? 0);
  return (
    <span className="tabular-nums">
      <span className="text-muted">{before === null ? "new" : formatResource(kind, before)}</span>
      {" → "}
      <span>{after === null ? "gone" : formatResource(kind, after)}</span>{" "}
      <span className={d > 0 ? "text-ok" : "text-bad"} data-testid="delta">
        ({d > 0 ? "+" : "−"}
        {formatResource(kind, Math.abs(d))})
      </span>
    </span>
  );
}

/** Who gains and who loses entitlement, by how much, per kind. */
export function EntitlementPreview({
  moves,
  path,
}: {
  moves: readonly EntitlementMove[];
  path: string;
}) {
  if (moves.length === 0)
    return (
      <p className="text-muted" data-testid="preview-none">
        No pool&apos;s entitlement moves: nothing waits for these resources right now (an ELASTIC
        reservation only counts what the pool&apos;s tasks ask for).
      </p>
    );
  const kinds = DISPLAY_KINDS.filter((k) =>
    moves.some((m) => Math.abs((m.after?.[k] ?? 0) - (m.before?.[k] ?? 0)) > EPSILON),
  );
  // The changed pool first, then the others by how much they move (the first kind that moves).
  const size = (m: EntitlementMove) =>
    Math.max(...kinds.map((k) => Math.abs((m.after?.[k] ?? 0) - (m.before?.[k] ?? 0))));
  const ordered = [...moves].sort(
    (a, b) => Number(b.path === path) - Number(a.path === path) || size(b) - size(a),
  );
  return (
    <table className="w-full text-left" data-testid="preview-moves">
      <caption className="sr-only">Entitlement before and after the change</caption>
      <thead className="text-xs uppercase tracking-wide text-muted">
        <tr className="border-b border-border">
          <th scope="col" className="py-1.5 pr-3 font-medium">
            Pool
          </th>
          {kinds.map((k) => (
            <th key={k} scope="col" className="py-1.5 pr-3 font-medium">
              {KIND_LABEL[k]} entitlement
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ordered.map((m) => (
          <tr key={m.path} data-pool={m.path} className="border-b border-border last:border-0">
            <td className="py-1.5 pr-3 font-mono text-xs">
              {m.path === path ? (
                <strong>{m.path}</strong>
              ) : (
                <Link href={poolHref(m.path)} className="hover:underline">
                  {m.path}
                </Link>
              )}
            </td>
            {kinds.map((k) => (
              <td key={k} className="py-1.5 pr-3" data-kind={k}>
                <Delta kind={k} before={m.before?.[k] ?? null} after={m.after?.[k] ?? null} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export type PreviewState =
  | "invalid-input"
  | "unchanged"
  | "failed"
  | "computing"
  | "ready"
  | "breaks-rule";

const PREVIEW_TEXT: Record<Exclude<PreviewState, "ready">, { text: string; bad?: boolean }> = {
  "invalid-input": { text: "Fix the highlighted fields to see what the change does." },
  unchanged: { text: "Change a setting to see whose entitlement it moves." },
  failed: { text: "The preview could not be computed; the server may be restarting.", bad: true },
  computing: { text: "Computing…" },
  "breaks-rule": {
    text: "This change breaks a pool rule; see the messages beside the fields.",
    bad: true,
  },
};

/** The form's preview box: the moves once the server has judged the values, else why not yet. */
export function PreviewPanel({
  state,
  checking,
  moves,
  path,
}: {
  state: PreviewState;
  checking: boolean;
  moves: readonly EntitlementMove[];
  path: string;
}) {
  const message = state === "ready" ? null : PREVIEW_TEXT[state];
  return (
    <section
      aria-label="Entitlement preview"
      className="rounded-lg border border-border bg-surface-2/40 p-3"
      data-testid="preview"
    >
      <h3 className="mb-2 flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted">
        Entitlement preview: who gains, who loses
        {checking && (
          <span className="font-normal normal-case" data-testid="preview-checking">
            checking…
          </span>
        )}
      </h3>
      {message ? (
        <p
          className={message.bad ? "text-bad" : "text-muted"}
          data-testid={state === "breaks-rule" ? "preview-invalid" : undefined}
        >
          {message.text}
        </p>
      ) : (
        <EntitlementPreview moves={moves} path={path} />
      )}
    </section>
  );
}
