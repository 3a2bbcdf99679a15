import Link from "next/link";
import { CommandPalette } from "../palette/command-palette";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";

export function Header() {
  return (
    <header className="sticky top-0 z-30 flex h-12 items-center gap-4 border-b border-border bg-surface px-4">
      <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
        <span aria-hidden className="inline-block size-5 rounded bg-accent" />
        Peloton
      </Link>
      <div className="flex-1">
        <CommandPalette />
      </div>
      <UserMenu />
      <ThemeToggle />
    </header>
  );
}
