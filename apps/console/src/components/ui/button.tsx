import { type ButtonHTMLAttributes, forwardRef, useId } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-accent text-accent-fg hover:opacity-90 border border-transparent",
  secondary: "border border-border bg-surface hover:bg-surface-2",
  danger: "border border-bad/50 text-bad hover:bg-bad/10",
  ghost: "border border-transparent text-muted hover:bg-surface-2 hover:text-fg",
};

/**
 * The console's buttons. What a user may not do is explained, not hidden: a
 * button given a `disabledReason` is disabled, shows the reason on hover
 * (`title`) and tells screen readers through aria-describedby.
 */
export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & {
    variant?: Variant;
    size?: "sm" | "md";
    disabledReason?: string | undefined;
  }
>(function Button(
  { variant = "secondary", size = "md", className = "", type, disabledReason, ...props },
  ref,
) {
  const reasonId = useId();
  const sizing = size === "sm" ? "h-7 px-2 text-xs" : "h-8 px-3";
  const button = (
    <button
      ref={ref}
      type={type ?? "button"}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md font-medium disabled:cursor-not-allowed disabled:opacity-50 ${sizing} ${VARIANTS[variant]} ${className}`}
      {...props}
      {...(disabledReason
        ? {
            disabled: true,
            title: disabledReason,
            "aria-describedby": reasonId,
            "data-refused": "true",
          }
        : {})}
    />
  );
  if (!disabledReason) return button;
  return (
    <>
      {button}
      <span id={reasonId} className="sr-only">
        {disabledReason}
      </span>
    </>
  );
});
