import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { ReactNode } from "react";

/** A column header that sorts the (server-side) list by its key; says how it is sorted. */
export function SortHeader<K extends string>({
  sortKey,
  sort,
  order,
  onSort,
  children,
  align = "left",
}: {
  sortKey: K;
  sort: K;
  order: "asc" | "desc";
  onSort: (key: K, order: "asc" | "desc") => void;
  children: ReactNode;
  align?: "left" | "right";
}) {
  const active = sort === sortKey;
  const Icon = !active ? ArrowUpDown : order === "asc" ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (order === "asc" ? "ascending" : "descending") : "none"}
      className={`py-1.5 pr-3 font-medium ${align === "right" ? "text-right" : ""}`}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey, active && order === "asc" ? "desc" : "asc")}
        className={`inline-flex items-center gap-1 uppercase tracking-wide hover:text-fg ${active ? "text-fg" : ""}`}
      >
        {children}
        <Icon className="size-3" aria-hidden />
      </button>
    </th>
  );
}

/** A column header that does not sort, styled like `SortHeader`'s. */
export function ColumnHeader({
  children,
  align = "left",
  className = "",
}: {
  children: ReactNode;
  align?: "left" | "right";
  className?: string;
}) {
  return (
    <th
      scope="col"
      className={`py-1.5 pr-3 font-medium uppercase tracking-wide ${align === "right" ? "text-right" : ""} ${className}`}
    >
      {children}
    </th>
  );
}
