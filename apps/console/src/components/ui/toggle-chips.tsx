import type { ReactNode } from "react";
import { formatCount } from "@/lib/format";
import { TONE_DOT, type Tone } from "@/lib/states";

/**
 * A filter of on/off chips (states, types), each a pressed-or-not button,
 * with an optional colour dot and count; the chosen values in their order.
 */
export function ToggleChips<T extends string>({
  legend,
  options,
  value,
  onChange,
  tone,
  count,
  trailing,
}: {
  legend: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (v: T[]) => void;
  /** A colour dot per option (states). */
  tone?: (v: T) => Tone;
  /** A count per option (how many are in it). */
  count?: (v: T) => number;
  trailing?: ReactNode;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-1">
      <legend className="sr-only">{legend}</legend>
      {options.map((o) => {
        const on = value.includes(o);
        return (
          <button
            key={o}
            type="button"
            aria-pressed={on}
            data-value={o}
            onClick={() => onChange(on ? value.filter((x) => x !== o) : [...value, o])}
            className={`flex items-center gap-1.5 rounded-md border px-2 py-1 text-xs ${
              on ? "border-accent bg-surface-2 text-fg" : "border-border text-muted hover:text-fg"
            }`}
          >
            {tone && <span aria-hidden className={`size-2 rounded-full ${TONE_DOT[tone(o)]}`} />}
            {o}
            {count && <span className="tabular-nums text-fg">{formatCount(count(o))}</span>}
          </button>
        );
      })}
      {trailing}
    </fieldset>
  );
}
