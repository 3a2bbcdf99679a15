"use client";
import { checkJobYaml } from "@peloton/api/config";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useDeferredValue, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { AccessNote } from "@/components/identity/access-note";
import { refusal, useAccess } from "@/components/identity/use-access";
import { factsOf } from "@/components/identity/use-pool-facts";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import type { PoolRow } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useUnsavedChangesGuard } from "@/lib/use-unsaved-changes";
import { isLeafPool, PoolPicker } from "./pool-picker";
import { STARTER_JOB_YAML } from "./starter-template";
import { type EditorIssue, YamlEditor, type YamlEditorHandle } from "./yaml-editor";

interface ServerAnswer {
  /** The text the server judged: its issues hold while the text is unchanged. */
  text: string;
  issues: EditorIssue[];
  /** A problem that is not in the file (the pool). */
  message: string | null;
}

/** Issues of a failed `jobs.create`, from the error formatter's `data.issues`. */
function answerOf(text: string, err: unknown): ServerAnswer {
  const data = (err as { data?: { issues?: (EditorIssue & { field: string | null })[] | null } })
    .data;
  const all = data?.issues ?? [];
  const inFile = all.filter(
    (i) => i.line !== undefined || (i.field !== null && i.field !== "pool"),
  );
  const elsewhere = all.filter((i) => !inFile.includes(i));
  return {
    text,
    issues: inFile.map((i) => ({ ...i, field: i.field ?? "" })),
    message:
      elsewhere.length > 0
        ? elsewhere.map((i) => i.message).join("; ")
        : inFile.length > 0
          ? null
          : (err as Error).message,
  };
}

/**
 * The "New job" flow: a leaf pool and Peloton's job YAML. The file is checked
 * as the user types (the same decoder and engine rules as the server), each
 * problem marked at its line and listed with its field; the server's answer
 * on submit is authoritative. A created job opens its page.
 */
export function NewJobForm({
  pools,
  initialPool,
}: {
  pools: readonly PoolRow[];
  initialPool: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const poolId = useId();
  const editor = useRef<YamlEditorHandle>(null);
  const [text, setText] = useState(STARTER_JOB_YAML);
  const [pool, setPool] = useState(initialPool);
  const [answer, setAnswer] = useState<ServerAnswer | null>(null);

  const deferred = useDeferredValue(text);
  const check = useMemo(() => checkJobYaml(deferred), [deferred]);
  const fromFile = check.ok ? check.config.respoolId?.value : undefined;
  const serverIssues = answer && answer.text === text ? answer.issues : [];
  const issues: EditorIssue[] = check.ok ? serverIssues : check.issues;

  const create = useMutation(
    trpc.jobs.create.mutationOptions({
      onSuccess: (created) => {
        toast.success(`Job created in ${created.pool}`, {
          description: `${created.instances} instance${created.instances === 1 ? "" : "s"} queued`,
        });
        router.push(`/jobs/${created.id}`);
      },
      onError: (err, input) => setAnswer(answerOf(input.yaml, err)),
    }),
  );

  // A job being created (or created) is not lost by leaving.
  useUnsavedChangesGuard(
    text !== STARTER_JOB_YAML && !create.isPending && !create.isSuccess,
    "the new job",
  );

  const target = pool || fromFile;
  const poolProblem = !target
    ? "Choose the pool the job runs in"
    : pools.some((p) => p.path === target && isLeafPool(p))
      ? undefined
      : `${target} is not a leaf pool: jobs run in leaf pools only, choose one`;
  const targetPool = pools.find((p) => p.path === target);
  // May the signed-in person submit to that pool (an operator of a team it lists)?
  const access = useAccess(targetPool ? { kind: "job.create", pool: factsOf(targetPool) } : null);
  const blocked = !check.ok
    ? `Fix the ${issues.length} problem${issues.length === 1 ? "" : "s"} in the file first`
    : (poolProblem ?? refusal(access));

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (blocked) return;
        setAnswer(null);
        create.mutate({ yaml: text, ...(pool ? { pool } : {}) });
      }}
    >
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-2">
          <div className="flex items-baseline justify-between">
            <span className="text-xs font-medium text-muted">Job config (Peloton YAML)</span>
            <button
              type="button"
              className="text-xs text-accent hover:underline"
              onClick={() => {
                setText(STARTER_JOB_YAML);
                setAnswer(null);
              }}
            >
              Start again from the template
            </button>
          </div>
          <YamlEditor
            ref={editor}
            value={text}
            onChange={setText}
            issues={issues}
            label="Job config"
            minHeight="26rem"
            testId="job-editor"
          />
          <p className="text-xs text-muted">
            Paste a Peloton job file as it is: lowercase keys (<code>instancecount</code>), enums as
            numbers, and <code>null</code> for unset fields work.
          </p>
        </div>

        <aside className="space-y-4">
          <div className="space-y-1">
            <label htmlFor={poolId} className="text-xs font-medium text-muted">
              Resource pool
            </label>
            <PoolPicker
              id={poolId}
              pools={pools}
              value={pool}
              fromFile={fromFile}
              onChange={setPool}
              invalid={!!target && !!poolProblem}
            />
          </div>

          <section aria-label="Problems" data-testid="job-problems" data-count={issues.length}>
            <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">
              {issues.length === 0
                ? "No problems found"
                : `${issues.length} problem${issues.length === 1 ? "" : "s"}`}
            </h2>
            {issues.length === 0 ? (
              <p className="mt-1 text-xs text-muted">
                The file is checked as you type with the server&apos;s own rules.
              </p>
            ) : (
              <ul className="mt-1 space-y-1">
                {issues.map((i) => (
                  <li
                    key={`${i.field}:${i.line}:${i.message}`}
                    data-testid="job-problem"
                    data-field={i.field}
                  >
                    <button
                      type="button"
                      onClick={() => i.line && editor.current?.goToLine(i.line)}
                      className="w-full rounded-md border border-bad/30 bg-bad/5 px-2 py-1 text-left text-xs hover:border-bad"
                    >
                      <span className="font-mono font-medium">{i.field || "(file)"}</span>
                      {i.line !== undefined && <span className="text-muted"> · line {i.line}</span>}
                      <span className="block text-fg">{i.message}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>

          {answer?.message && answer.text === text && (
            <Notice tone="bad" title="The job was not created" testId="create-error">
              {answer.message}
            </Notice>
          )}

          {targetPool && <AccessNote access={access} />}
          <div className="flex gap-2">
            <Button
              type="submit"
              variant="primary"
              disabled={!!blocked || create.isPending}
              title={blocked}
            >
              {create.isPending ? "Creating…" : "Create job"}
            </Button>
            <Link
              href="/jobs"
              className="inline-flex h-8 items-center rounded-md px-3 text-muted hover:bg-surface-2"
            >
              Cancel
            </Link>
          </div>
          {blocked && <p className="text-xs text-muted">{blocked}.</p>}
        </aside>
      </div>
    </form>
  );
}
