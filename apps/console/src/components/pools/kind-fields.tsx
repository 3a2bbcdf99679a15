"use client";
import type { PoolFormValues } from "@peloton/api/schemas";
import { INPUT_UNITS } from "@peloton/engine/format";
import { useCallback, useState } from "react";
import { type Control, Controller, type UseFormRegister } from "react-hook-form";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import { MegabytesInput } from "@/components/ui/megabytes-input";
import type { PoolDetail } from "@/lib/api-types";
import { formatInputUnit, KIND_LABEL, type Kind } from "@/lib/format";

const UNIT = INPUT_UNITS;

/** What the parent leaves for this pool, shown under the inputs it bounds. */
function roomHints(kind: Kind, room: PoolDetail["room"][Kind] | undefined, parentPath: string) {
  if (!room) return {};
  const left = Math.max(0, room.parentReservation - room.siblingsReservation);
  const parent = parentPath === "/" ? "the cluster" : parentPath;
  return {
    reservation: `up to ${formatInputUnit(kind, left)} left in ${parent}`,
    limit: `at most ${formatInputUnit(kind, room.parentLimit)} (${parent}'s limit)`,
  };
}

type AmountName = "reservation" | "limit";

/** Memory and disk: typed in MB, GB or TB, picked per field; the form keeps MB. */
function MegabytesField({
  kind,
  name,
  label,
  hint,
  control,
  error,
}: {
  kind: "memory" | "disk";
  name: AmountName;
  label: string;
  hint: string | undefined;
  control: Control<PoolFormValues>;
  error: (field: string) => string | undefined;
}) {
  const field = `resources.${kind}.${name}` as const;
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const onParseError = useCallback((m: string | null) => setUnreadable(m), []);
  return (
    <FormField label={label} error={unreadable ?? error(field)} hint={hint}>
      {(ids) => (
        <Controller
          control={control}
          name={field}
          render={({ field: f }) => (
            <MegabytesInput
              ids={ids}
              label={`the ${kind} ${name}`}
              field={field}
              value={f.value}
              onChange={f.onChange}
              onBlur={f.onBlur}
              onParseError={onParseError}
            />
          )}
        />
      )}
    </FormField>
  );
}

/** Reservation, limit, share and type of one kind, each with its error beside it. */
export function KindFields({
  kind,
  register,
  control,
  error,
  room,
  parentPath,
}: {
  kind: Kind;
  register: UseFormRegister<PoolFormValues>;
  control: Control<PoolFormValues>;
  error: (field: string) => string | undefined;
  room?: PoolDetail["room"][Kind];
  parentPath: string;
}) {
  const hints = roomHints(kind, room, parentPath);
  const number = (name: AmountName | "share", label: string, hint?: string) => {
    const field = `resources.${kind}.${name}` as const;
    if (name !== "share" && (kind === "memory" || kind === "disk"))
      return (
        <MegabytesField
          kind={kind}
          name={name}
          label={label}
          hint={hint}
          control={control}
          error={error}
        />
      );
    return (
      <FormField label={label} error={error(field)} hint={hint}>
        {(ids) => (
          <input
            {...ids}
            type="number"
            step="any"
            min={0}
            inputMode="decimal"
            data-field={field}
            className={INPUT_CLASS}
            {...register(field, { valueAsNumber: true })}
          />
        )}
      </FormField>
    );
  };
  return (
    <fieldset
      className="grid grid-cols-[6rem_repeat(3,minmax(0,1fr))_8rem] items-start gap-3 border-b border-border py-3 last:border-0"
      data-kind={kind}
    >
      <legend className="sr-only">{KIND_LABEL[kind]}</legend>
      <div className="pt-5">
        <p className="font-medium">{KIND_LABEL[kind]}</p>
        <p className="text-xs text-muted">
          {kind === "memory" || kind === "disk" ? "MB, GB or TB" : UNIT[kind]}
        </p>
      </div>
      {number("reservation", "Reservation", hints.reservation)}
      {number("limit", "Limit", hints.limit)}
      {number("share", "Share")}
      <FormField label="Type" error={error(`resources.${kind}.type`)}>
        {(ids) => (
          <select {...ids} className={INPUT_CLASS} {...register(`resources.${kind}.type`)}>
            <option value="ELASTIC">ELASTIC</option>
            <option value="STATIC">STATIC</option>
          </select>
        )}
      </FormField>
    </fieldset>
  );
}
