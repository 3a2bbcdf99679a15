"use client";
/**
 * Page state kept in the query string (filters, sort, page, tab, range), so
 * any view is a URL that can be shared as a link. Changes replace the history
 * entry through the History API, which Next's router follows
 * (useSearchParams sees the new value) without asking the server for the
 * page again: switching a tab keeps a half-edited form, and a filter change
 * only refetches the query that depends on it. Each change starts from the
 * URL as it is at that moment, so two quick edits (clear the filters, then
 * pick a zone) never undo each other.
 */
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback } from "react";

type Params = { get(name: string): string | null };

function replaceQuery(pathname: string, query: string): void {
  const qs = query.startsWith("?") ? query.slice(1) : query;
  window.history.replaceState(null, "", qs ? `${pathname}?${qs}` : pathname);
}

/** One parameter; `null` (or the fallback) removes it, other parameters are kept. */
export function useSearchParam<T extends string>(
  name: string,
  fallback: T,
  allowed?: readonly T[],
): [T, (value: T | null) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const raw = params.get(name);
  const value = raw !== null && (!allowed || allowed.includes(raw as T)) ? (raw as T) : fallback;
  const set = useCallback(
    (next: T | null) => {
      const p = new URLSearchParams(window.location.search);
      if (next === null || next === fallback) p.delete(name);
      else p.set(name, next);
      replaceQuery(pathname, p.toString());
    },
    [pathname, name, fallback],
  );
  return [value, set];
}

/** A page's whole state as one object, read from and written to the query string. */
export function useUrlState<T>(
  read: (params: Params) => T,
  write: (state: T) => string,
): [T, (next: Partial<T>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const set = useCallback(
    (next: Partial<T>) => {
      const current = read(new URLSearchParams(window.location.search));
      replaceQuery(pathname, write({ ...current, ...next }));
    },
    [pathname, read, write],
  );
  return [read(params), set];
}
