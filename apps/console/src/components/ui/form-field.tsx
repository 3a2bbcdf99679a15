import { type ReactNode, useId } from "react";

/**
 * A labelled input with its hint and its error right beside it. The error
 * (from the shared zod schema as the user types, or from the server's rules)
 * is announced and tied to the input with aria-describedby.
 */
export function FormField({
  label,
  error,
  hint,
  children,
  className = "",
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Receives the ids to put on the input. */
  children: (ids: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby": string | undefined;
  }) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      {children({ id, "aria-invalid": !!error, "aria-describedby": describedBy || undefined })}
      {hint && !error && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-bad" data-testid="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The input style shared by forms; invalid inputs get a red border. */
export const INPUT_CLASS =
  "h-8 w-full rounded-md border border-border bg-surface px-2 tabular-nums placeholder:text-muted aria-[invalid=true]:border-bad aria-[invalid=true]:bg-bad/5";
