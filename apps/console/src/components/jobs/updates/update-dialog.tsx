"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ApiIssue } from "@peloton/api";
import { checkJobYaml } from "@peloton/api/config";
import { type UpdateOptionsInput, updateOptionsSchema } from "@peloton/api/schemas";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation } from "@tanstack/react-query";
import { ArrowLeft, X } from "lucide-react";
import { useDeferredValue, useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useReturnFocus } from "@/components/ui/use-return-focus";
import type { JobDetail } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { type EditorIssue, YamlEditor } from "../new/yaml-editor";
import { SideBySideDiff } from "./side-by-side-diff";
import { UpdateOptionsFields } from "./update-options-fields";
import type { UpdateOptions } from "./update-types";

/** Peloton's UpdateConfig defaults, with a batch of one instance at a time. */
export const DEFAULT_UPDATE_OPTIONS: UpdateOptions = {
  batchSize: 1,
  batchPercentage: 0,
  stopBeforeUpdate: false,
  startPaused: false,
  rollbackOnFailure: false,
  maxInstanceAttempts: 0,
  maxFailureInstances: 0,
  inPlace: false,
  startTasks: false,
};

interface Refusal {
  /** Problems in the YAML, marked in the editor. */
  file: EditorIssue[];
  /** Everything else, each naming its field. */
  other: string[];
}

/** Splits the API's issues: the file's (they have a line, or a config field) and the rest. */
function refusalOf(err: { message: string; data?: unknown }): Refusal {
  const issues =
    (err.data as { issues?: (ApiIssue & { line?: number; column?: number })[] | null })?.issues ??
    [];
  if (issues.length === 0) return { file: [], other: [err.message] };
  const inFile = (i: ApiIssue & { line?: number }) =>
    i.line !== undefined ||
    (i.field !== null && !/^(options|jobId|configVersion|override)\b/.test(i.field));
  return {
    file: issues.filter(inFile).map((i) => ({ ...i, field: i.field ?? "" })),
    other: issues
      .filter((i) => !inFile(i))
      .map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)),
  };
}

/**
 * Update a job: its YAML edited in place (checked as it is typed with the
 * server's own rules), Peloton's UpdateConfig in a form, then the change
 * against the current version side by side before it is confirmed. The
 * server's refusal is shown where it belongs (the file's line, the option's
 * field) and the input is kept.
 */
export function UpdateDialog({
  job,
  open,
  onOpenChange,
  activeUpdate,
}: {
  job: Pick<JobDetail, "id" | "name" | "configYaml" | "configVersion" | "instanceCount">;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The update in progress, when there is one: the new one overrides it (it is aborted). */
  activeUpdate: { id: string; state: string } | null;
}) {
  const trpc = useTRPC();
  // Opened by the job page's Update button, outside the dialog: Escape gives it the focus back.
  const returnFocus = useReturnFocus(open);
  const [step, setStep] = useState<"edit" | "review">("edit");
  const [text, setText] = useState(job.configYaml);
  const [override, setOverride] = useState(false);
  const [refusal, setRefusal] = useState<{ text: string; refusal: Refusal } | null>(null);
  const form = useForm<UpdateOptionsInput, unknown, UpdateOptions>({
    resolver: zodResolver(updateOptionsSchema),
    mode: "onChange",
    defaultValues: DEFAULT_UPDATE_OPTIONS,
  });
  const options = useWatch({ control: form.control }) as UpdateOptions;

  const deferred = useDeferredValue(text);
  const check = useMemo(() => checkJobYaml(deferred), [deferred]);
  const serverFile = refusal && refusal.text === text ? refusal.refusal.file : [];
  const issues: EditorIssue[] = check.ok ? serverFile : check.issues;
  const unchanged = text.trim() === job.configYaml.trim();
  // The API's rule that needs the job: no more failures tolerated than there are instances.
  const instanceCount = check.ok ? check.config.instanceCount : job.instanceCount;
  const tooManyFailures =
    options.maxFailureInstances > instanceCount
      ? `at most the job's ${instanceCount} instances (got ${options.maxFailureInstances})`
      : undefined;
  const optionErrors = Object.keys(form.formState.errors).length + (tooManyFailures ? 1 : 0);

  const blocked = !check.ok
    ? `Fix the ${issues.length} problem${issues.length === 1 ? "" : "s"} in the file first`
    : unchanged
      ? `Change the configuration first: it is the same as version ${job.configVersion}`
      : optionErrors > 0
        ? "Correct the update options first"
        : activeUpdate && !override
          ? 'Another update is in progress: tick "Abort it" to replace it'
          : undefined;

  const create = useMutation(
    trpc.updates.create.mutationOptions({
      onSuccess: (created) => {
        toast.success(`Update of ${job.name} started`, {
          description: `version ${created.fromVersion} → ${created.toVersion} · ${created.state}`,
        });
        setRefusal(null);
        setStep("edit");
        onOpenChange(false);
      },
      onError: (err, input) => {
        const r = refusalOf(err);
        // Option fields go beside their inputs, under the names the form knows.
        for (const i of (err.data as { issues?: ApiIssue[] | null } | undefined)?.issues ?? []) {
          const name = i.field?.match(/^options\.(\w+)$/)?.[1];
          if (name && name in DEFAULT_UPDATE_OPTIONS)
            form.setError(name as keyof UpdateOptions, { type: "server", message: i.message });
        }
        setRefusal({ text: input.yaml, refusal: r });
        // A problem in the file is fixed in the editor.
        if (r.file.length > 0) setStep("edit");
      },
    }),
  );

  const submit = form.handleSubmit((values) =>
    create.mutate({
      jobId: job.id,
      yaml: text,
      options: values,
      configVersion: job.configVersion,
      ...(override ? { override: true } : {}),
    }),
  );

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !create.isPending && onOpenChange(o)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          onCloseAutoFocus={returnFocus}
          className="fixed left-1/2 top-[5vh] z-50 flex max-h-[90vh] w-[76rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 flex-col rounded-lg border border-border bg-surface shadow-xl"
          data-testid="update-dialog"
          data-step={step}
        >
          <div className="flex items-start justify-between gap-4 border-b border-border px-5 py-3">
            <div>
              <Dialog.Title className="font-semibold">
                {step === "edit" ? `Update ${job.name}` : `Review the update of ${job.name}`}
              </Dialog.Title>
              <Dialog.Description className="text-xs text-muted">
                {step === "edit"
                  ? `Edit the configuration (now version ${job.configVersion}) and how it rolls out.`
                  : `Version ${job.configVersion} on the left, the new one on the right. Nothing changes until you start it.`}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label="Close">
                <X className="size-4" aria-hidden />
              </Button>
            </Dialog.Close>
          </div>

          <form
            noValidate
            className="flex min-h-0 flex-1 flex-col"
            onSubmit={(e) => {
              e.preventDefault();
              if (blocked) return;
              if (step === "edit") setStep("review");
              else void submit();
            }}
          >
            <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
              {step === "edit" ? (
                <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_18rem]">
                  <div className="space-y-2">
                    <YamlEditor
                      value={text}
                      onChange={setText}
                      issues={issues}
                      label="New job config"
                      minHeight="24rem"
                      maxHeight="60vh"
                      testId="update-editor"
                    />
                    {issues.length > 0 && (
                      <ul className="space-y-1" data-testid="update-problems">
                        {issues.map((i) => (
                          <li
                            key={`${i.field}:${i.line}:${i.message}`}
                            className="text-xs text-bad"
                            data-field={i.field}
                          >
                            <span className="font-mono">{i.field || "(file)"}</span>
                            {i.line !== undefined && (
                              <span className="text-muted"> · line {i.line}</span>
                            )}
                            : {i.message}
                          </li>
                        ))}
                      </ul>
                    )}
                  </div>
                  <UpdateOptionsFields
                    form={form}
                    instanceCount={instanceCount}
                    maxFailureProblem={tooManyFailures}
                  />
                </div>
              ) : (
                <div className="space-y-4">
                  <SideBySideDiff
                    before={job.configYaml}
                    after={text}
                    beforeLabel={`Version ${job.configVersion} (current)`}
                    afterLabel="New version"
                    testId="update-diff"
                  />
                  <p className="text-xs text-muted" data-testid="update-summary">
                    {options.batchSize > 0
                      ? `Batches of ${options.batchSize} instance${options.batchSize === 1 ? "" : "s"}`
                      : `Batches of ${options.batchPercentage}% of the instances`}
                    {options.startPaused && " · starts paused"}
                    {options.rollbackOnFailure && " · rolls back if it fails"}
                    {options.maxFailureInstances > 0 &&
                      ` · fails after ${options.maxFailureInstances} failed instances`}
                    {options.inPlace && " · in place"}
                  </p>
                </div>
              )}
              {activeUpdate && (
                <label className="mt-4 flex items-start gap-2 text-xs">
                  <input
                    type="checkbox"
                    checked={override}
                    onChange={(e) => setOverride(e.target.checked)}
                    className="mt-0.5"
                    data-testid="update-override"
                  />
                  <span>
                    <span className="font-medium">Abort it.</span>{" "}
                    <span className="text-muted">
                      An update is in progress ({activeUpdate.state}); this one replaces it, and it
                      ends ABORTED.
                    </span>
                  </span>
                </label>
              )}
              {refusal && refusal.text === text && refusal.refusal.other.length > 0 && (
                <div className="mt-4">
                  <Notice tone="bad" title="The update was not started" testId="update-error">
                    {refusal.refusal.other.join("; ")}
                  </Notice>
                </div>
              )}
            </div>

            <div className="flex items-center justify-end gap-2 border-t border-border px-5 py-3">
              {blocked && (
                <p className="mr-auto text-xs text-muted" data-testid="update-blocked">
                  {blocked}
                </p>
              )}
              {step === "review" && (
                <Button onClick={() => setStep("edit")} disabled={create.isPending}>
                  <ArrowLeft className="size-3.5" aria-hidden />
                  Back to editing
                </Button>
              )}
              <Dialog.Close asChild>
                <Button disabled={create.isPending}>Cancel</Button>
              </Dialog.Close>
              <Button
                type="submit"
                variant="primary"
                disabledReason={create.isPending ? undefined : blocked}
                disabled={create.isPending}
              >
                {create.isPending
                  ? "Starting…"
                  : step === "edit"
                    ? "Review changes"
                    : "Start update"}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
