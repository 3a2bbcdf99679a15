"use client";
import { Monitor, Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useEffect, useState } from "react";

const ORDER = ["system", "light", "dark"] as const;
const ICONS = { system: Monitor, light: Sun, dark: Moon };

/** Cycles system → light → dark; the choice is remembered by next-themes. */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  // The stored theme is only known after mounting; render a stable icon until then.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const current = (mounted && ORDER.find((t) => t === theme)) || "system";
  const next = ORDER[(ORDER.indexOf(current) + 1) % ORDER.length]!;
  const Icon = ICONS[current];
  return (
    <button
      type="button"
      onClick={() => setTheme(next)}
      className="rounded-md p-1.5 text-muted hover:bg-surface-2 hover:text-fg"
      aria-label={`Theme: ${current}. Switch to ${next}`}
      title={`Theme: ${current} (click for ${next})`}
    >
      <Icon className="size-4" aria-hidden />
    </button>
  );
}
