"use client";
import type { UpdateOptionsInput } from "@peloton/api/schemas";
import type { UseFormReturn } from "react-hook-form";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import type { UpdateOptions } from "./update-types";

const NUMBERS: { name: keyof UpdateOptions; label: string; hint: string }[] = [
  { name: "batchSize", label: "Batch size", hint: "instances replaced at a time" },
  {
    name: "batchPercentage",
    label: "Batch percentage",
    hint: "of the instances at a time, when the batch size is 0",
  },
  {
    name: "maxInstanceAttempts",
    label: "Max attempts per instance",
    hint: "runs on the new version before the instance counts as failed (0: no limit)",
  },
  {
    name: "maxFailureInstances",
    label: "Max failed instances",
    hint: "more than this fails the update (0: no limit)",
  },
];

const FLAGS: { name: keyof UpdateOptions; label: string; hint: string }[] = [
  {
    name: "rollbackOnFailure",
    label: "Roll back on failure",
    hint: "a failed update goes back to the current version",
  },
  { name: "startPaused", label: "Start paused", hint: "nothing moves until it is resumed" },
  { name: "inPlace", label: "In place", hint: "new runs prefer each instance's current host" },
  {
    name: "stopBeforeUpdate",
    label: "Stop before update",
    hint: "stop each instance before its new run is placed",
  },
  {
    name: "startTasks",
    label: "Start stopped instances",
    hint: "instances not running are started on the new version",
  },
];

/**
 * Peloton's UpdateConfig as a form: each field checked as it is typed by the
 * API's own schema, its error (or the server's) right beside it.
 */
export function UpdateOptionsFields({
  form,
  instanceCount,
  maxFailureProblem,
}: {
  form: UseFormReturn<UpdateOptionsInput, unknown, UpdateOptions>;
  instanceCount: number;
  /** The rule the schema cannot check alone (it needs the job's instance count). */
  maxFailureProblem: string | undefined;
}) {
  const { register, formState } = form;
  return (
    <fieldset className="space-y-3" data-testid="update-options">
      <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">
        How it rolls out
      </legend>
      {NUMBERS.map((f) => (
        <FormField
          key={f.name}
          label={f.label}
          hint={
            f.name === "maxFailureInstances" ? `${f.hint}; the job has ${instanceCount}` : f.hint
          }
          error={
            formState.errors[f.name]?.message ??
            (f.name === "maxFailureInstances" ? maxFailureProblem : undefined)
          }
        >
          {(ids) => (
            <input
              {...ids}
              inputMode="numeric"
              className={INPUT_CLASS}
              data-testid={`option-${f.name}`}
              {...register(f.name, { valueAsNumber: true })}
            />
          )}
        </FormField>
      ))}
      <div className="space-y-2 pt-1">
        {FLAGS.map((f) => (
          <label key={f.name} className="flex items-start gap-2 text-xs">
            <input
              type="checkbox"
              className="mt-0.5"
              data-testid={`option-${f.name}`}
              {...register(f.name)}
            />
            <span>
              <span className="font-medium">{f.label}</span>
              <span className="block text-muted">{f.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
