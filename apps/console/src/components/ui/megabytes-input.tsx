"use client";
/**
 * An amount of memory or disk typed in a unit chosen beside it (issue #19
 * item 5): "32" with GB picked is 32768 MB, which is what the form keeps and
 * sends. A unit typed with the number ("512 MB") picks that unit. Text that
 * is not an amount gives the form NaN (so it cannot be saved) and says what
 * is expected.
 */
import {
  amountInUnit,
  MEGABYTE_UNITS,
  type MegabyteUnit,
  parseMegabytes,
  preferredMegabyteUnit,
} from "@peloton/engine/format";
import { useEffect, useRef, useState } from "react";
import { INPUT_CLASS } from "./form-field";

const textOf = (mb: number, unit: MegabyteUnit) =>
  Number.isFinite(mb) ? String(amountInUnit(mb, unit)) : "";

export function MegabytesInput({
  ids,
  label,
  value,
  onChange,
  onBlur,
  onParseError,
  field,
}: {
  /** The label, error and hint ids of the surrounding FormField. */
  ids: { id: string; "aria-invalid": boolean; "aria-describedby": string | undefined };
  /** Names the unit picker for screen readers: "Unit of the memory limit". */
  label: string;
  /** MB, as the form keeps it. */
  value: number;
  onChange: (mb: number) => void;
  onBlur: () => void;
  /** What is wrong with the text typed, or null once it reads as an amount. */
  onParseError: (message: string | null) => void;
  field: string;
}) {
  const [unit, setUnit] = useState<MegabyteUnit>(() => preferredMegabyteUnit(value));
  const [text, setText] = useState(() => textOf(value, unit));
  // The MB the text stands for: a reset of the form (a value from elsewhere) rewrites the text.
  const shown = useRef(value);
  useEffect(() => {
    if (Object.is(value, shown.current)) return;
    shown.current = value;
    const next = preferredMegabyteUnit(value, unit);
    setUnit(next);
    setText(textOf(value, next));
    onParseError(null);
  }, [value, unit, onParseError]);

  const type = (t: string) => {
    setText(t);
    const parsed = parseMegabytes(t, unit);
    if (!parsed.ok) {
      shown.current = Number.NaN;
      onChange(Number.NaN);
      onParseError(parsed.message);
      return;
    }
    shown.current = parsed.mb;
    setUnit(parsed.unit);
    onChange(parsed.mb);
    onParseError(null);
  };
  const pick = (next: MegabyteUnit) => {
    setUnit(next);
    // The amount stays; it is shown in the new unit.
    if (Number.isFinite(shown.current)) setText(textOf(shown.current, next));
  };
  return (
    <div className="flex gap-1">
      <input
        {...ids}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        data-field={field}
        data-megabytes={Number.isFinite(value) ? value : ""}
        className={`${INPUT_CLASS} min-w-0`}
        value={text}
        onChange={(e) => type(e.target.value)}
        onBlur={() => {
          // "512 MB" reads back as "512" with MB picked.
          if (Number.isFinite(shown.current)) setText(textOf(shown.current, unit));
          onBlur();
        }}
      />
      <select
        aria-label={`Unit of ${label}`}
        data-unit-for={field}
        className="h-8 rounded-md border border-border bg-surface px-1 text-xs"
        value={unit}
        onChange={(e) => pick(e.target.value as MegabyteUnit)}
      >
        {MEGABYTE_UNITS.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
    </div>
  );
}
