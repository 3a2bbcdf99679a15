"use client";
/**
 * The command palette (Ctrl-K / Cmd-K, or `/` outside a text field): jump to
 * a page, a job (by name, the id prefix the lists show, owner or label), a
 * task (by `<job>/<instance>` or its cluster task id), a pool, a host or a
 * volume; or run an action on what was found — only the actions the
 * signed-in person may take, each confirmed as on its own page. Keyboard
 * only: arrows pick, Enter runs, Escape closes.
 */
import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import {
  Boxes,
  CornerDownLeft,
  HardDrive,
  Layers,
  type LucideIcon,
  ScrollText,
  Search,
  Server,
  SquareTerminal,
  Zap,
} from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { useAccessDecider } from "@/components/identity/use-access";
import { usePoolFactsByPath } from "@/components/identity/use-pool-facts";
import type { SearchHit } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { confirmLeaving } from "@/lib/use-unsaved-changes";
import { type PaletteAction, paletteActions } from "./palette-actions";
import { PaletteConfirm } from "./palette-confirm";
import { PaletteDialog } from "./palette-dialog";
import { matchingPages } from "./palette-pages";
import { usePaletteHotkeys } from "./use-palette-hotkeys";

const KIND_ICON: Record<SearchHit["kind"], LucideIcon> = {
  job: Boxes,
  task: SquareTerminal,
  pool: Layers,
  host: Server,
  volume: HardDrive,
};
const KIND_HEADING: Record<SearchHit["kind"], string> = {
  job: "Jobs",
  task: "Tasks",
  pool: "Pools",
  host: "Hosts",
  volume: "Volumes",
};
const KIND_ORDER: SearchHit["kind"][] = ["job", "task", "pool", "host", "volume"];
/** Typing settles for this long before the server is asked. */
const DEBOUNCE_MS = 150;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

const ITEM =
  "flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm aria-selected:bg-surface-2 data-[selected=true]:bg-surface-2";
const GROUP =
  "px-1.5 py-1 [&_[cmdk-group-heading]]:px-2.5 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:uppercase [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-muted";

export function CommandPalette() {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const [pending, setPending] = useState<PaletteAction | null>(null);
  const show = useCallback(() => setOpen(true), []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  usePaletteHotkeys(show, toggle);

  const term = useDebounced(q.trim(), DEBOUNCE_MS);
  const search = useQuery(
    trpc.search.query.queryOptions(
      { q: term, limit: 12 },
      { enabled: open && term.length > 0, placeholderData: (prev) => prev },
    ),
  );
  const hits = term.length > 0 ? (search.data ?? []) : [];
  const decide = useAccessDecider();
  // Only while open: a query the layout starts at load would be cached before a page's
  // filters hydrate, and they would render pools the server did not.
  const facts = usePoolFactsByPath(open);
  const actions = hits.flatMap((h) =>
    paletteActions(h.target, {
      allowed: (request) => decide(request).allowed,
      poolFacts: (path) => facts?.get(path) ?? null,
    }),
  );
  const pages = matchingPages(q);

  const close = () => {
    setOpen(false);
    setQ("");
  };
  const go = (href: string) => {
    close();
    if (confirmLeaving()) router.push(href);
  };
  const run = (a: PaletteAction) => {
    if (a.kind === "open") return go(a.href);
    close();
    setPending(a);
  };
  const waiting = q.trim() !== term || search.isFetching;

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K Meta+K /"
        className="flex h-8 w-full max-w-md items-center gap-2 whitespace-nowrap rounded-md border border-border bg-surface-2 px-2.5 text-sm text-muted hover:border-accent"
      >
        <Search className="size-4" aria-hidden />
        <span className="min-w-0 flex-1 truncate text-left">Search or run a command…</span>
        <kbd className="rounded border border-border px-1 text-xs">/</kbd>
        <kbd className="rounded border border-border px-1 text-xs">Ctrl K</kbd>
      </button>
      <PaletteDialog open={open} onOpenChange={(o) => (o ? setOpen(true) : close())} label="Search">
        {/* cmdk names its input by this label (aria-labelledby), as the dialog is named. */}
        <Command label="Search" shouldFilter={false} loop>
          {/* The field's own focus ring would be clipped by the dialog: the row shows focus instead. */}
          <div className="flex items-center gap-2 border-b border-border px-3 focus-within:bg-surface-2/40">
            <Search className="size-4 shrink-0 text-muted" aria-hidden />
            <Command.Input
              value={q}
              onValueChange={setQ}
              placeholder="A job's name or id, owner:alice, team=ml, job/3, a cluster task id, a pool, a host…"
              className="h-11 w-full bg-transparent text-sm placeholder:text-muted"
              // Inline: the global :focus-visible ring is unlayered and would win over a class.
              style={{ outline: "none" }}
            />
          </div>
          <Command.List className="max-h-[60vh] overflow-y-auto pb-1.5" data-testid="palette-list">
            <Command.Empty className="px-4 py-6 text-center text-sm text-muted">
              {q.trim() === ""
                ? "Type to search."
                : waiting
                  ? "Searching…"
                  : `Nothing matches “${q.trim()}”.`}
            </Command.Empty>
            {KIND_ORDER.map((kind) => {
              const group = hits.filter((h) => h.kind === kind);
              if (group.length === 0) return null;
              const Icon = KIND_ICON[kind];
              return (
                <Command.Group key={kind} heading={KIND_HEADING[kind]} className={GROUP}>
                  {group.map((h) => (
                    <Command.Item
                      key={h.href + h.label}
                      value={`${kind}:${h.href}:${h.label}`}
                      onSelect={() => go(h.href)}
                      className={ITEM}
                    >
                      <Icon className="size-4 shrink-0 text-muted" aria-hidden />
                      <span className="min-w-0 truncate font-mono">{h.label}</span>
                      <span className="min-w-0 flex-1 truncate text-right text-xs text-muted">
                        {h.detail}
                      </span>
                    </Command.Item>
                  ))}
                </Command.Group>
              );
            })}
            {actions.length > 0 && (
              <Command.Group heading="Actions" className={GROUP}>
                {actions.map((a) => (
                  <Command.Item key={a.id} value={a.id} onSelect={() => run(a)} className={ITEM}>
                    {a.kind === "open" ? (
                      <ScrollText className="size-4 text-muted" aria-hidden />
                    ) : (
                      <Zap className="size-4 text-muted" aria-hidden />
                    )}
                    <span className="flex-1 truncate">{a.label}</span>
                    <span className="text-xs text-muted">
                      {a.kind === "open" ? "open" : "asks first"}
                    </span>
                  </Command.Item>
                ))}
              </Command.Group>
            )}
            {pages.length > 0 && (
              <Command.Group heading="Pages" className={GROUP}>
                {pages.map((p) => (
                  <Command.Item
                    key={p.href}
                    value={`page:${p.href}`}
                    onSelect={() => go(p.href)}
                    className={ITEM}
                  >
                    <p.icon className="size-4 text-muted" aria-hidden />
                    <span className="flex-1">{p.label}</span>
                    <span className="font-mono text-xs text-muted">{p.href}</span>
                  </Command.Item>
                ))}
              </Command.Group>
            )}
          </Command.List>
          <div className="flex items-center gap-3 border-t border-border px-3 py-1.5 text-xs text-muted">
            <span>
              <kbd className="font-sans">↑↓</kbd> pick
            </span>
            <span className="flex items-center gap-1">
              <CornerDownLeft className="size-3" aria-hidden /> open or run
            </span>
            <span>
              <kbd className="font-sans">Esc</kbd> close
            </span>
          </div>
        </Command>
      </PaletteDialog>
      <PaletteConfirm action={pending} onDone={() => setPending(null)} />
    </>
  );
}
