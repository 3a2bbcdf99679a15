"use client";
import * as Tabs from "@radix-ui/react-tabs";

/** A page's tab strip (its views; the chosen one lives in the URL). */
export function PageTabList({ label, tabs }: { label: string; tabs: readonly string[] }) {
  return (
    <Tabs.List aria-label={label} className="flex gap-1 border-b border-border">
      {tabs.map((t) => (
        <Tabs.Trigger
          key={t}
          value={t}
          className="-mb-px border-b-2 border-transparent px-3 py-1.5 capitalize text-muted hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg"
        >
          {t}
        </Tabs.Trigger>
      ))}
    </Tabs.List>
  );
}
