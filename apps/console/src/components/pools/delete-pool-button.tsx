"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { refusal, useAccess } from "@/components/identity/use-access";
import { factsOf } from "@/components/identity/use-pool-facts";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { PoolDetail } from "@/lib/api-types";
import { DISPLAY_KINDS, poolHref } from "@/lib/pools";
import { useTRPC } from "@/lib/trpc";

/** Why the pool cannot be deleted (peloton-semantics.md §2: only an idle leaf), or null. */
export function whyNotDeletable(pool: PoolDetail): string | null {
  if (pool.children > 0)
    return `It has ${pool.children} child pool${pool.children === 1 ? "" : "s"}: only a leaf pool can be deleted.`;
  const busy = DISPLAY_KINDS.some(
    (k) => pool.resources[k].allocation > 0 || pool.resources[k].demand > 0,
  );
  if (pool.jobs > 0 || busy)
    return `It is busy (${pool.jobs} job${pool.jobs === 1 ? "" : "s"}, tasks running or waiting): only an idle pool can be deleted.`;
  return null;
}

export function DeletePoolButton({ pool }: { pool: PoolDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(trpc.pools.delete.mutationOptions());
  const access = useAccess({ kind: "pool.delete", pool: factsOf(pool) });
  // Who may first (it holds whatever the pool's state), then whether the pool can go.
  const reason = refusal(access) ?? whyNotDeletable(pool) ?? undefined;
  const trigger = (
    <Button variant="danger" disabledReason={reason} title={reason ?? `Delete ${pool.path}`}>
      <Trash2 className="size-4" aria-hidden /> Delete
    </Button>
  );
  if (reason) return trigger;
  return (
    <ConfirmDialog
      trigger={trigger}
      title={`Delete ${pool.path}?`}
      confirmLabel="Delete pool"
      tone="danger"
      busy={remove.isPending}
      onConfirm={() =>
        remove.mutate(
          { path: pool.path, version: pool.version },
          {
            onSuccess: async () => {
              toast.success(`Deleted ${pool.path}`);
              await queryClient.invalidateQueries({ queryKey: trpc.pools.pathKey() });
              router.push(poolHref(pool.parentPath));
            },
            onError: (err) => toast.error(`${pool.path} was not deleted: ${err.message}`),
          },
        )
      }
    >
      The pool is empty and has no children. Its history stays in the audit log and on this path.
    </ConfirmDialog>
  );
}
