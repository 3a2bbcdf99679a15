"use client";
import type { PoolFacts } from "@peloton/api/policy";
import type { PoolFormValues } from "@peloton/api/schemas";
import * as Dialog from "@radix-ui/react-dialog";
import { Plus, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { refusal, useAccess } from "@/components/identity/use-access";
import { Button } from "@/components/ui/button";
import type { Kind } from "@/lib/format";
import { poolHref } from "@/lib/pools";
import { PoolForm } from "./pool-form";

/**
 * A new pool's starting values: nothing reserved, share 1, and the parent's
 * limit as its own (the most a child may have), so it can borrow at once.
 */
export function newPoolValues(parentLimit: Record<Kind, number>): PoolFormValues {
  const kind = (k: Kind) => ({
    reservation: 0,
    limit: parentLimit[k],
    share: 1,
    type: "ELASTIC" as const,
  });
  return {
    name: "",
    owningTeam: "",
    description: "",
    ldapGroups: "",
    resources: { cpu: kind("cpu"), gpu: kind("gpu"), memory: kind("memory"), disk: kind("disk") },
    controllerLimit: { maxPercent: null },
    slackLimit: { maxPercent: null },
  };
}

/** "New pool" under `parentPath`: the pool form in a dialog; opens the new pool's page once created. */
export function CreatePoolDialog({
  parent,
  parentLimit,
  label,
}: {
  /** The parent's facts: who may create pools under it. */
  parent: PoolFacts;
  parentLimit: Record<Kind, number>;
  label: string;
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const parentPath = parent.path;
  const refused = refusal(useAccess({ kind: "pool.create", parent }));
  if (refused)
    return (
      <Button variant="primary" disabledReason={refused}>
        <Plus className="size-4" aria-hidden /> {label}
      </Button>
    );
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant="primary">
          <Plus className="size-4" aria-hidden /> {label}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          onOpenAutoFocus={(e) => {
            // Start in the name field rather than on the close button.
            const name = (e.currentTarget as HTMLElement | null)?.querySelector<HTMLInputElement>(
              'input[data-field="name"]',
            );
            if (name) {
              e.preventDefault();
              name.focus();
            }
          }}
          className="fixed left-1/2 top-8 z-50 max-h-[calc(100vh-4rem)] w-[60rem] max-w-[calc(100vw-2rem)] -translate-x-1/2 overflow-y-auto rounded-lg border border-border bg-surface p-5 shadow-xl"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="font-semibold">
                New pool under <span className="font-mono">{parentPath}</span>
              </Dialog.Title>
              <Dialog.Description className="text-muted">
                Checked against the parent and its other children as you type; the preview shows
                whose entitlement it would take.
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label="Close">
                <X className="size-4" aria-hidden />
              </Button>
            </Dialog.Close>
          </div>
          {open && (
            <PoolForm
              target={{ action: "create", parentPath }}
              parentFacts={parent}
              initial={newPoolValues(parentLimit)}
              onCancel={() => setOpen(false)}
              onSaved={(saved) => {
                setOpen(false);
                router.push(poolHref(saved.path));
              }}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
