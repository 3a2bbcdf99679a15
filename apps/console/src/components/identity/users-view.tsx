"use client";
import { ROLE_LABELS } from "@peloton/engine";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Ban, KeyRound, Pencil, RotateCcw, UserPlus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, RowsSkeleton } from "@/components/ui/card";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { LoadError } from "@/components/ui/load-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { describeApiError } from "@/lib/api-errors";
import { AdminOnly } from "./admin-only";
import { IDENTITY_KEYS, useIdentityApi } from "./identity-api";
import { PageTitle, TD, TH } from "./page-title";
import type { NewUser, UserChange, UserRow } from "./types";
import { useMe } from "./use-me";
import { PasswordDialog, UserDialog } from "./user-dialogs";

const PAGE = 50;

type Editing =
  | { kind: "create" }
  | { kind: "edit"; user: UserRow }
  | { kind: "password"; user: UserRow }
  | null;

/** `/admin/users`: who may sign in, with which role, teams and grants. */
export function UsersView() {
  return (
    <AdminOnly what="users">
      <Users />
    </AdminOnly>
  );
}

function Users() {
  const api = useIdentityApi();
  const queryClient = useQueryClient();
  const me = useMe();
  const [search, setSearch] = useState("");
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const users = useQuery({
    queryKey: [...IDENTITY_KEYS.users, search, cursor ?? ""],
    queryFn: () =>
      api.users.list({
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
        ...(search ? { search } : {}),
      }),
    placeholderData: keepPreviousData,
  });
  const teams = useQuery({ queryKey: IDENTITY_KEYS.teams, queryFn: api.teams.list });
  const teamNames = (teams.data ?? []).map((t) => t.name);
  const [editing, setEditing] = useState<Editing>(null);

  const changed = async (what: string) => {
    toast.success(what);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.users }),
      queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.teams }),
      queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.me }),
    ]);
  };
  const save = async (values: NewUser | UserChange) => {
    if (editing?.kind === "edit") {
      await api.users.update(values as UserChange);
      await changed(`${values.login} changed`);
    } else {
      await api.users.create(values as NewUser);
      await changed(`${values.login} created`);
    }
  };
  const act = async (what: string, call: () => Promise<unknown>) => {
    try {
      await call();
      await changed(what);
    } catch (err) {
      toast.error(describeApiError(err as Error));
      throw err;
    }
  };

  const rows = users.data?.items ?? [];
  return (
    <div className="space-y-4">
      <PageTitle
        title="Users"
        description="Who may sign in, their role, their teams and whether they may drain hosts."
        actions={
          <Button variant="primary" onClick={() => setEditing({ kind: "create" })}>
            <UserPlus className="size-4" aria-hidden /> New user
          </Button>
        }
      />
      <input
        type="search"
        aria-label="Find a user"
        placeholder="Login or name contains…"
        defaultValue={search}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            setSearch(e.currentTarget.value.trim());
            setCursors([]);
          }
        }}
        className="h-8 w-64 rounded-md border border-border bg-surface px-2"
      />
      <Card title="People">
        {users.isError ? (
          <LoadError what="The users" error={users.error} onRetry={() => users.refetch()} />
        ) : users.isPending ? (
          <RowsSkeleton />
        ) : rows.length === 0 ? (
          <EmptyState title={search ? `Nobody matches “${search}”` : "No users yet"}>
            {search
              ? "Look for another part of their login or name."
              : "Create one with “New user”; they sign in with the password you give them."}
          </EmptyState>
        ) : (
          <table className="w-full" data-testid="users-table">
            <caption className="sr-only">Users</caption>
            <thead>
              <tr className="border-b border-border">
                <th className={TH}>Login</th>
                <th className={TH}>Name</th>
                <th className={TH}>Role</th>
                <th className={TH}>Teams</th>
                <th className={TH}>Host maintenance</th>
                <th className={TH}>Status</th>
                <th className={TH}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => {
                const self = u.login === me.data?.login;
                return (
                  <tr
                    key={u.id}
                    data-user={u.login}
                    className={`border-b border-border last:border-0 ${u.disabledAt ? "text-muted" : ""}`}
                  >
                    <td className={`${TD} font-mono font-medium`}>{u.login}</td>
                    <td className={TD}>
                      {u.displayName}
                      {u.email && <p className="text-xs text-muted">{u.email}</p>}
                    </td>
                    <td className={TD} data-testid="user-role-cell">
                      {ROLE_LABELS[u.role]}
                    </td>
                    <td className={`${TD} font-mono text-xs`}>
                      {u.teams.length ? u.teams.join(", ") : <span className="text-muted">—</span>}
                    </td>
                    <td className={TD}>
                      {u.role === "ADMIN" ? "as admin" : u.hostMaintenance ? "granted" : "—"}
                    </td>
                    <td className={TD}>
                      {u.disabledAt ? (
                        <span className="text-bad">
                          disabled <RelativeTime at={u.disabledAt} />
                        </span>
                      ) : (
                        "active"
                      )}
                    </td>
                    <td className={`${TD} whitespace-nowrap text-right`}>
                      <div className="flex justify-end gap-1.5">
                        <Button size="sm" onClick={() => setEditing({ kind: "edit", user: u })}>
                          <Pencil className="size-3.5" aria-hidden /> Change
                        </Button>
                        <Button size="sm" onClick={() => setEditing({ kind: "password", user: u })}>
                          <KeyRound className="size-3.5" aria-hidden /> Set password
                        </Button>
                        {u.disabledAt ? (
                          <ConfirmedAction
                            label="Enable"
                            icon={<RotateCcw className="size-3.5" aria-hidden />}
                            title={`Enable ${u.login}?`}
                            confirmLabel="Enable user"
                            onConfirm={() =>
                              act(`${u.login} enabled`, () => api.users.enable(u.login))
                            }
                          >
                            <p>They may sign in again; their tokens work again unless revoked.</p>
                          </ConfirmedAction>
                        ) : (
                          <ConfirmedAction
                            label="Disable"
                            icon={<Ban className="size-3.5" aria-hidden />}
                            tone="danger"
                            disabledReason={self ? "you cannot disable yourself" : undefined}
                            title={`Disable ${u.login}?`}
                            confirmLabel="Disable user"
                            onConfirm={() =>
                              act(`${u.login} disabled`, () => api.users.disable(u.login))
                            }
                          >
                            <p>
                              They are signed out everywhere at once and their tokens are refused
                              from the next request. Their history stays.
                            </p>
                          </ConfirmedAction>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Card>
      <div className="flex items-center gap-3 text-xs text-muted">
        {cursors.length > 0 && (
          <Button size="sm" onClick={() => setCursors([])}>
            First page
          </Button>
        )}
        {users.data?.nextCursor && (
          <Button size="sm" onClick={() => setCursors([...cursors, users.data.nextCursor ?? ""])}>
            Next {PAGE}
          </Button>
        )}
      </div>

      {editing && editing.kind !== "password" && (
        <UserDialog
          key={editing.kind === "edit" ? editing.user.id : "new"}
          user={editing.kind === "edit" ? editing.user : null}
          teams={teamNames}
          open
          onOpenChange={(o) => !o && setEditing(null)}
          onSave={save}
        />
      )}
      {editing?.kind === "password" && (
        <PasswordDialog
          key={editing.user.id}
          login={editing.user.login}
          open
          onOpenChange={(o) => !o && setEditing(null)}
          onSave={(password) =>
            api.users
              .setPassword(editing.user.login, password)
              .then(() => toast.success(`${editing.user.login} has a new password`))
          }
        />
      )}
    </div>
  );
}
