"use client";
import { useQuery } from "@tanstack/react-query";
import { Search } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable);
}

/** `/` focuses it; arrows pick a hit; Enter opens it; Escape leaves. */
export function SearchBox() {
  const trpc = useTRPC();
  const router = useRouter();
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const term = q.trim();
  const { data: hits = [], isFetching } = useQuery(
    trpc.search.query.queryOptions(
      { q: term, limit: 10 },
      { enabled: term.length > 0, placeholderData: (prev) => prev },
    ),
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "/" && !isTyping(e.target)) {
        e.preventDefault();
        inputRef.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const go = (href: string) => {
    setOpen(false);
    setQ("");
    inputRef.current?.blur();
    router.push(href);
  };

  const showList = open && term.length > 0;
  return (
    <div className="relative max-w-md">
      <Search
        className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted"
        aria-hidden
      />
      <input
        ref={inputRef}
        type="search"
        value={q}
        placeholder="Search jobs, tasks (job/3), pools, hosts…"
        aria-label="Search"
        aria-keyshortcuts="/"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && hits[active] ? `${listId}-${active}` : undefined}
        className="h-8 w-full rounded-md border border-border bg-surface-2 pl-8 pr-8 text-sm placeholder:text-muted focus:bg-surface"
        onChange={(e) => {
          setQ(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown")
            setActive((a) => Math.min(a + 1, Math.max(hits.length - 1, 0)));
          else if (e.key === "ArrowUp") setActive((a) => Math.max(a - 1, 0));
          else if (e.key === "Enter" && hits[active]) go(hits[active].href);
          else if (e.key === "Escape") {
            setOpen(false);
            inputRef.current?.blur();
          } else return;
          e.preventDefault();
        }}
      />
      <kbd className="pointer-events-none absolute right-2 top-1/2 -translate-y-1/2 rounded border border-border px-1 text-xs text-muted">
        /
      </kbd>
      {showList && (
        <div
          id={listId}
          role="listbox"
          className="absolute left-0 right-0 top-9 z-40 overflow-hidden rounded-md border border-border bg-surface shadow-lg"
        >
          {hits.length === 0 ? (
            <div className="px-3 py-2 text-muted">
              {isFetching ? "Searching…" : `Nothing matches “${term}”.`}
            </div>
          ) : (
            hits.map((h, i) => (
              <div
                key={h.href}
                tabIndex={-1}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={`flex cursor-pointer justify-between gap-3 px-3 py-1.5 ${i === active ? "bg-surface-2" : ""}`}
                onMouseDown={(e) => {
                  e.preventDefault();
                  go(h.href);
                }}
                onMouseEnter={() => setActive(i)}
              >
                <span className="truncate font-mono">{h.label}</span>
                <span className="shrink-0 text-muted">{h.detail}</span>
              </div>
            ))
          )}
        </div>
      )}
    </div>
  );
}
