"use client";
/**
 * A text filter that applies as you type (issue #19 item 6): the value goes
 * to the page (and its URL, replaced, not pushed) 300 ms after the last
 * keystroke, and at once on Enter or when the input loses focus. A value
 * from elsewhere (a link, "clear filters") replaces the text; the input is
 * never remounted, so typing keeps its focus and caret.
 */
import { type InputHTMLAttributes, useEffect, useRef, useState } from "react";

/** How long typing pauses before the filter applies. */
export const FILTER_DEBOUNCE_MS = 300;

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "defaultValue" | "onChange"> & {
  value: string;
  /** The trimmed text, when it differs from the last one applied. */
  onCommit: (value: string) => void;
  delayMs?: number;
};

export function FilterInput({ value, onCommit, delayMs = FILTER_DEBOUNCE_MS, ...rest }: Props) {
  const [text, setText] = useState(value);
  const applied = useRef(value);
  const commitRef = useRef(onCommit);
  commitRef.current = onCommit;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (value === applied.current) return;
    applied.current = value;
    setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = (raw: string) => {
    clearTimeout(timer.current);
    const next = raw.trim();
    if (next === applied.current) return;
    applied.current = next;
    commitRef.current(next);
  };
  return (
    <input
      type="search"
      {...rest}
      value={text}
      onChange={(e) => {
        const raw = e.target.value;
        setText(raw);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => commit(raw), delayMs);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit(e.currentTarget.value);
        rest.onKeyDown?.(e);
      }}
      onBlur={(e) => {
        commit(e.currentTarget.value);
        rest.onBlur?.(e);
      }}
    />
  );
}
