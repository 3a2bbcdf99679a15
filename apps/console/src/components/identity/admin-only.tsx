"use client";
import type { ReactNode } from "react";
import { Notice } from "@/components/ui/notice";
import { useAccess } from "./use-access";
import { useMe } from "./use-me";

/**
 * The admin pages' gate: a person who is not an admin sees why and what to
 * do, not a broken page (the API refuses them anyway).
 */
export function AdminOnly({ what, children }: { what: "users" | "teams"; children: ReactNode }) {
  const me = useMe();
  const access = useAccess({ kind: what === "users" ? "user.list" : "team.manage" });
  if (me.isPending) return null;
  if (!access.allowed)
    return (
      <div className="max-w-2xl">
        <Notice tone="warn" title={`Only admins may manage ${what}`} testId="admins-only">
          {`You are signed in as ${me.data?.login ?? "someone else"}. Ask an admin to change ${
            what === "users" ? "a person's role, teams or password" : "teams and their members"
          }. Your own API tokens are under “API tokens” in your menu.`}
        </Notice>
      </div>
    );
  return <>{children}</>;
}
