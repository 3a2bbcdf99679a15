"use client";
import { ROLE_LABELS } from "@peloton/engine";
import * as Menu from "@radix-ui/react-dropdown-menu";
import { ChevronDown, KeyRound, LogOut, UserRound, Users, UsersRound } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { signOut } from "@/components/identity/sign-in-request";
import { useMe } from "@/components/identity/use-me";

const ITEM =
  "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-surface-2 data-[highlighted]:text-fg";

function MenuLink({
  href,
  icon,
  children,
}: {
  href: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <Menu.Item asChild className={ITEM}>
      <Link href={href}>
        {icon}
        {children}
      </Link>
    </Menu.Item>
  );
}

/**
 * Who is acting, always visible: the signed-in person's name and role in the
 * header; the menu adds their login, teams, their API tokens, the admin pages
 * (for admins) and signing out.
 */
export function UserMenu() {
  const me = useMe();
  const person = me.data;
  if (me.isError)
    return (
      <a href="/sign-in" className="text-accent hover:underline" data-testid="actor">
        Sign in
      </a>
    );
  return (
    <Menu.Root>
      <Menu.Trigger
        className="flex items-center gap-1.5 rounded-md px-2 py-1 text-muted hover:bg-surface-2 hover:text-fg data-[state=open]:bg-surface-2"
        data-testid="user-menu"
      >
        <UserRound className="size-4" aria-hidden />
        <span data-testid="actor" className="text-fg">
          {person?.displayName ?? "…"}
        </span>
        {person && (
          <span className="rounded border border-border px-1 text-xs" data-testid="actor-role">
            {ROLE_LABELS[person.role]}
          </span>
        )}
        {/* The name is the visible words and then this (WCAG 2.5.3, "label in name"). */}
        <span className="sr-only">{person ? ", signed in: account menu" : "Account menu"}</span>
        <ChevronDown className="size-3.5" aria-hidden />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={6}
          className="z-50 w-64 rounded-md border border-border bg-surface p-1 text-sm text-muted shadow-lg"
        >
          {person && (
            <div className="px-2 py-2" data-testid="user-menu-who">
              <p className="font-medium text-fg">{person.displayName}</p>
              <p className="font-mono text-xs">{person.login}</p>
              <p className="mt-1 text-xs">
                {ROLE_LABELS[person.role]}
                {person.hostMaintenance && person.role !== "ADMIN" ? " · host maintenance" : ""}
              </p>
              <p className="mt-0.5 text-xs">
                {person.teams.length === 0
                  ? "No team"
                  : `Team${person.teams.length === 1 ? "" : "s"}: ${person.teams.join(", ")}`}
              </p>
            </div>
          )}
          <Menu.Separator className="my-1 h-px bg-border" />
          <MenuLink href="/tokens" icon={<KeyRound className="size-4" aria-hidden />}>
            API tokens
          </MenuLink>
          {person?.role === "ADMIN" && (
            <>
              <MenuLink href="/admin/users" icon={<Users className="size-4" aria-hidden />}>
                Users
              </MenuLink>
              <MenuLink href="/admin/teams" icon={<UsersRound className="size-4" aria-hidden />}>
                Teams
              </MenuLink>
            </>
          )}
          <Menu.Separator className="my-1 h-px bg-border" />
          <Menu.Item
            className={ITEM}
            onSelect={() => {
              void signOut().finally(() => window.location.assign("/sign-in"));
            }}
          >
            <LogOut className="size-4" aria-hidden />
            Sign out
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
