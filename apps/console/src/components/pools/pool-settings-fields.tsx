"use client";
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_LDAP_GROUPS,
  MAX_NAME_LENGTH,
  MAX_POOL_NAME_LENGTH,
  type PoolFormValues,
} from "@peloton/api/schemas";
import type { UseFormRegister } from "react-hook-form";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import { settingLabel } from "@/lib/pools";

interface FieldsProps {
  register: UseFormRegister<PoolFormValues>;
  error: (field: string) => string | undefined;
}

type TextField = "name" | "owningTeam" | "ldapGroups" | "description";

/** The API's limits (the shared schemas refuse the same): the input stops there. */
const MAX_LENGTH: Record<TextField, number> = {
  name: MAX_POOL_NAME_LENGTH,
  owningTeam: MAX_NAME_LENGTH,
  ldapGroups: MAX_LDAP_GROUPS * (MAX_NAME_LENGTH + 2),
  description: MAX_DESCRIPTION_LENGTH,
};

function TextInput({
  field,
  label,
  hint,
  register,
  error,
  className,
}: FieldsProps & { field: TextField; label: string; hint?: string; className?: string }) {
  return (
    <FormField label={label} error={error(field)} hint={hint} className={className}>
      {(ids) => (
        <input
          {...ids}
          data-field={field}
          maxLength={MAX_LENGTH[field]}
          className={INPUT_CLASS}
          {...register(field)}
        />
      )}
    </FormField>
  );
}

/** Name (fixed once the pool exists: its path is its identity), team, groups, description. */
export function PoolSettingsFields({
  fixedName,
  nameHint,
  ...props
}: FieldsProps & { fixedName: string | null; nameHint: string }) {
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      {fixedName !== null ? (
        <FormField label="Name" hint="A pool's path is its identity: it cannot be renamed.">
          {(ids) => (
            <input {...ids} readOnly value={fixedName} className={`${INPUT_CLASS} text-muted`} />
          )}
        </FormField>
      ) : (
        <TextInput {...props} field="name" label="Name" hint={nameHint} />
      )}
      <TextInput {...props} field="owningTeam" label="Owning team" />
      <TextInput
        {...props}
        field="ldapGroups"
        label="LDAP groups"
        hint={`Comma-separated, at most ${MAX_LDAP_GROUPS}`}
      />
      <TextInput {...props} field="description" label="Description" className="md:col-span-3" />
    </div>
  );
}

const nullableNumber = { setValueAs: (v: unknown) => (v === "" || v === null ? null : Number(v)) };

/** The controller and slack limits, folded away: few pools set them. */
export function TaskLimitFields({ register, error }: FieldsProps) {
  const limit = (field: "controllerLimit.maxPercent" | "slackLimit.maxPercent", hint: string) => (
    <FormField label={settingLabel(field)} error={error(field)} hint={hint}>
      {(ids) => (
        <input
          {...ids}
          type="number"
          step="any"
          data-field={field}
          className={INPUT_CLASS}
          {...register(field, nullableNumber)}
        />
      )}
    </FormField>
  );
  return (
    <details className="rounded-md border border-border px-3 py-2">
      <summary className="cursor-pointer text-muted">
        Limits for controller and revocable tasks
      </summary>
      <div className="mt-3 grid grid-cols-1 gap-3 md:grid-cols-2">
        {limit(
          "controllerLimit.maxPercent",
          "Share of the reservation controller tasks may use; empty for no limit",
        )}
        {limit(
          "slackLimit.maxPercent",
          "Share of the reservation revocable tasks may use of memory, disk, GPU; empty for 20",
        )}
      </div>
    </details>
  );
}
