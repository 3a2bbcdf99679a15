/**
 * The pages the palette jumps to: the navigation's, and the few that are
 * not in it (a new job, tokens). Matched by a word of their name or path.
 */
import { FilePlus2, KeyRound, type LucideIcon } from "lucide-react";
import { NAV_ITEMS } from "../shell/nav-items";

export interface PalettePage {
  href: string;
  label: string;
  icon: LucideIcon;
}

export const PALETTE_PAGES: readonly PalettePage[] = [
  ...NAV_ITEMS,
  { href: "/jobs/new", label: "New job", icon: FilePlus2 },
  { href: "/tokens", label: "API tokens", icon: KeyRound },
];

/** Pages whose name or path contains the text (every page for an empty text). */
export function matchingPages(text: string): PalettePage[] {
  const t = text.trim().toLowerCase();
  if (t === "") return [...PALETTE_PAGES];
  return PALETTE_PAGES.filter(
    (p) => p.label.toLowerCase().includes(t) || p.href.slice(1).toLowerCase().startsWith(t),
  );
}
