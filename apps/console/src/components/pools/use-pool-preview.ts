"use client";
/**
 * The entitlement preview of a form as the user types: once the values pass
 * the shared schema and the user pauses, `pools.preview` judges them with
 * the engine's rules and returns either the broken rules (as field issues)
 * or how every pool's entitlement would move.
 */
import {
  formToConfig,
  type PoolFormValues,
  poolFormSchema,
  type RespoolConfig,
} from "@peloton/api/schemas";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc";

const DEBOUNCE_MS = 300;

export type PreviewTarget =
  | { action: "create"; parentPath: string }
  | { action: "update"; path: string };

function pathOf(target: PreviewTarget, config: RespoolConfig): string {
  if (target.action === "update") return target.path;
  return target.parentPath === "/" ? `/${config.name}` : `${target.parentPath}/${config.name}`;
}

/** `changed`: whether the values differ from what is stored (an unchanged form moves nothing). */
export function usePoolPreview(target: PreviewTarget, values: PoolFormValues, changed: boolean) {
  const trpc = useTRPC();
  const key = JSON.stringify(values);
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const t = setTimeout(() => setSettled(key), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [key]);
  const parsed = poolFormSchema.safeParse(JSON.parse(settled));
  const config = parsed.success ? formToConfig(parsed.data) : null;
  const input =
    config && changed ? { action: target.action, path: pathOf(target, config), config } : null;
  const query = useQuery(
    trpc.pools.preview.queryOptions(input ?? { action: "delete", path: "/" }, {
      enabled: input !== null,
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  );
  const current = input !== null && settled === key && !query.isPlaceholderData;
  return {
    /** The preview of what is in the form now (null while typing, unchanged, or rejected by the schema). */
    preview: current ? (query.data ?? null) : null,
    checking: key !== settled || query.isFetching,
    path: input?.path ?? null,
    failed: query.isError,
  };
}
