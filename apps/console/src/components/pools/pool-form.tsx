"use client";
/**
 * Create or edit a pool. The shared zod schema checks each input as the user
 * types; when the values pass, the server judges them with the engine's rules
 * (`pools.preview`): broken rules appear beside their inputs, valid values
 * show whose entitlement moves. Saving sends the version the form started
 * from, so an edit made meanwhile by someone else is a conflict, not lost.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import type { ApiIssue } from "@peloton/api";
import type { PoolFacts } from "@peloton/api/policy";
import {
  configToForm,
  formToConfig,
  type PoolFormValues,
  poolFormSchema,
} from "@peloton/api/schemas";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useState } from "react";
import { get, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { AccessNote } from "@/components/identity/access-note";
import { refusal, useAccess } from "@/components/identity/use-access";
import { factsOf, ROOT_FACTS } from "@/components/identity/use-pool-facts";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import type { PoolDetail } from "@/lib/api-types";
import { DISPLAY_KINDS } from "@/lib/pools";
import { useTRPC } from "@/lib/trpc";
import { useUnsavedChangesGuard } from "@/lib/use-unsaved-changes";
import { PreviewPanel } from "./entitlement-preview";
import { KindFields } from "./kind-fields";
import { PoolSettingsFields, TaskLimitFields } from "./pool-settings-fields";
import { usePoolPreview } from "./use-pool-preview";

export type PoolFormTarget =
  | { action: "create"; parentPath: string }
  | { action: "update"; pool: PoolDetail };

/** Fields the form shows: an issue about any other field is listed above the buttons. */
const FORM_FIELDS = new Set([
  "name",
  "owningTeam",
  "ldapGroups",
  "description",
  "controllerLimit.maxPercent",
  "slackLimit.maxPercent",
  ...DISPLAY_KINDS.flatMap((k) =>
    ["reservation", "limit", "share", "type"].map((f) => `resources.${k}.${f}`),
  ),
]);

export function PoolForm({
  target,
  initial,
  onSaved,
  onCancel,
  parentFacts,
}: {
  target: PoolFormTarget;
  /** Creating: the parent's facts (who may create under it); the root's when not given. */
  parentFacts?: PoolFacts;
  initial: PoolFormValues;
  onSaved: (saved: { path: string; version: number }) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(poolFormSchema),
    mode: "onChange",
    defaultValues: initial,
  });
  const { register, control, formState } = form;
  const values = useWatch({ control }) as PoolFormValues;
  const pool = target.action === "update" ? target.pool : null;
  const [baseVersion, setBaseVersion] = useState(pool?.version ?? 0);
  const { preview, checking, path, failed } = usePoolPreview(
    pool
      ? { action: "update", path: pool.path }
      : { action: "create", parentPath: target.action === "create" ? target.parentPath : "/" },
    values,
    formState.isDirty,
  );
  useUnsavedChangesGuard(formState.isDirty, pool ? pool.path : "the new pool");
  const [saveIssues, setSaveIssues] = useState<ApiIssue[]>([]);
  const [conflict, setConflict] = useState<string | null>(null);
  const valuesKey = JSON.stringify(values);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value makes the last save's issues stale
  useEffect(() => setSaveIssues([]), [valuesKey]);

  const issues = saveIssues.length > 0 ? saveIssues : (preview?.issues ?? []);
  const error = (field: string): string | undefined =>
    (get(formState.errors, field) as { message?: string } | undefined)?.message ??
    (issues
      .filter((i) => i.field === field)
      .map((i) => i.message)
      .join("; ") ||
      undefined);
  const otherIssues = issues.filter((i) => !i.field || !FORM_FIELDS.has(i.field));
  const create = useMutation(trpc.pools.create.mutationOptions());
  const update = useMutation(trpc.pools.update.mutationOptions());
  const saving = create.isPending || update.isPending;
  const blocked = !formState.isValid || issues.length > 0 || (pool !== null && !formState.isDirty);
  // Who may save: a lead of the owning team (and not give the pool away), or an admin.
  const access = useAccess(
    pool
      ? { kind: "pool.update", pool: factsOf(pool), newOwningTeam: values.owningTeam?.trim() }
      : { kind: "pool.create", parent: parentFacts ?? ROOT_FACTS },
  );

  const onSubmit = form.handleSubmit(async (data) => {
    const config = formToConfig(data);
    try {
      const saved = pool
        ? await update.mutateAsync({ path: pool.path, version: baseVersion, config })
        : await create.mutateAsync({ path: path ?? "", config });
      await queryClient.invalidateQueries({ queryKey: trpc.pools.pathKey() });
      toast.success(
        pool ? `Saved ${saved.path} (version ${saved.version})` : `Created ${saved.path}`,
      );
      setBaseVersion(saved.version);
      form.reset(data);
      onSaved(saved);
    } catch (err) {
      const data =
        err instanceof TRPCClientError
          ? (err.data as { code?: string; issues?: ApiIssue[] | null } | undefined)
          : undefined;
      if (data?.code === "CONFLICT") setConflict((err as Error).message);
      else
        setSaveIssues(
          data?.issues?.length
            ? data.issues
            : [{ field: null, code: "ERROR", message: String((err as Error).message ?? err) }],
        );
    }
  });

  const reload = () => {
    if (!pool) return;
    form.reset(configToForm(pool.config));
    setBaseVersion(pool.version);
    setConflict(null);
  };
  const parentPath = pool ? pool.parentPath : target.action === "create" ? target.parentPath : "/";

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" data-testid="pool-form">
      {pool && pool.version !== baseVersion && (
        <Notice
          tone="warn"
          title={`Someone saved version ${pool.version} of ${pool.path} since you started editing version ${baseVersion}.`}
          action={
            <Button size="sm" onClick={reload}>
              Load version {pool.version}
            </Button>
          }
        >
          Saving now would be refused. Load the latest version and make your change again.
        </Notice>
      )}
      {conflict && (
        <Notice
          tone="bad"
          title="Not saved: the pool changed meanwhile"
          testId="conflict"
          action={
            pool && (
              <Button size="sm" onClick={reload}>
                Load the latest version
              </Button>
            )
          }
        >
          {conflict}
        </Notice>
      )}

      <PoolSettingsFields
        register={register}
        error={error}
        fixedName={pool?.name ?? null}
        nameHint={path ? `Path: ${path}` : `Under ${parentPath}`}
      />

      <section aria-label="Resources per kind">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">
          Resources per kind
        </h3>
        {DISPLAY_KINDS.map((kind) => (
          <KindFields
            key={kind}
            kind={kind}
            register={register}
            control={control}
            error={error}
            room={pool?.room[kind]}
            parentPath={parentPath}
          />
        ))}
      </section>

      <TaskLimitFields register={register} error={error} />

      <PreviewPanel
        state={
          !formState.isValid
            ? "invalid-input"
            : !formState.isDirty
              ? "unchanged"
              : failed
                ? "failed"
                : preview === null
                  ? "computing"
                  : preview.valid
                    ? "ready"
                    : "breaks-rule"
        }
        checking={checking}
        moves={preview?.moves ?? []}
        path={path ?? ""}
      />

      {otherIssues.length > 0 && (
        <Notice tone="bad" title="Not possible" testId="form-issues">
          <ul className="list-disc pl-4">
            {otherIssues.map((i) => (
              <li key={`${i.code}:${i.message}`}>{i.message}</li>
            ))}
          </ul>
        </Notice>
      )}

      <div className="flex items-center justify-end gap-2">
        <AccessNote access={access} />
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          type="submit"
          variant="primary"
          disabled={blocked || saving}
          disabledReason={refusal(access)}
          title={
            blocked
              ? pool && !formState.isDirty
                ? "Nothing changed yet"
                : "Fix the errors first"
              : undefined
          }
        >
          {saving ? "Saving…" : pool ? "Save changes" : "Create pool"}
        </Button>
      </div>
    </form>
  );
}
