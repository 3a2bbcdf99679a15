"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2, UserMinus, UserPlus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { EmptyState, RowsSkeleton } from "@/components/ui/card";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import { LoadError } from "@/components/ui/load-error";
import { describeApiError } from "@/lib/api-errors";
import { AdminOnly } from "./admin-only";
import { FormDialog } from "./form-dialog";
import { IDENTITY_KEYS, useIdentityApi } from "./identity-api";
import { PageTitle } from "./page-title";
import type { TeamRow } from "./types";

/** Team names are what pools name in owningTeam and ldapGroups. */
const TEAM_RULE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `/admin/teams`: the teams pools are owned by and submitted to, and who is in them. */
export function TeamsView() {
  return (
    <AdminOnly what="teams">
      <Teams />
    </AdminOnly>
  );
}

function Teams() {
  const api = useIdentityApi();
  const queryClient = useQueryClient();
  const teams = useQuery({ queryKey: IDENTITY_KEYS.teams, queryFn: api.teams.list });
  const [creating, setCreating] = useState(false);

  const act = async (what: string, call: () => Promise<unknown>) => {
    try {
      await call();
      toast.success(what);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.teams }),
        queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.users }),
        queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.me }),
      ]);
    } catch (err) {
      toast.error(describeApiError(err as Error));
      throw err;
    }
  };

  const rows = teams.data ?? [];
  return (
    <div className="max-w-5xl space-y-4">
      <PageTitle
        title="Teams"
        description="A pool's owning team edits it; the teams in its ldapGroups (and its owner) submit jobs to it."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden /> New team
          </Button>
        }
      />
      {teams.isError ? (
        <LoadError what="The teams" error={teams.error} onRetry={() => teams.refetch()} />
      ) : teams.isPending ? (
        <RowsSkeleton tall />
      ) : rows.length === 0 ? (
        <EmptyState title="No teams yet">
          Create one with “New team”, then name it as a pool&apos;s owning team and add its people.
        </EmptyState>
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" data-testid="teams">
          {rows.map((t) => (
            <TeamCard key={t.id} team={t} act={act} />
          ))}
        </div>
      )}
      {creating && (
        <NewTeamDialog
          onClose={() => setCreating(false)}
          onCreate={(name, description) =>
            act(`Team ${name} created`, () =>
              api.teams.create({ name, ...(description ? { description } : {}) }),
            )
          }
        />
      )}
    </div>
  );
}

function TeamCard({
  team,
  act,
}: {
  team: TeamRow;
  act: (what: string, call: () => Promise<unknown>) => Promise<void>;
}) {
  const api = useIdentityApi();
  const [login, setLogin] = useState("");
  const [adding, setAdding] = useState(false);
  return (
    <section
      aria-label={`Team ${team.name}`}
      data-testid={`team-${team.name}`}
      className="rounded-lg border border-border bg-surface"
    >
      <header className="flex items-center justify-between border-b border-border px-4 py-2.5">
        {/* Not the cards' upper case: a team's name is matched exactly by pools. */}
        <h2 className="font-mono font-semibold">{team.name}</h2>
        <ConfirmedAction
          label="Delete"
          icon={<Trash2 className="size-3.5" aria-hidden />}
          tone="danger"
          title={`Delete team ${team.name}?`}
          confirmLabel="Delete team"
          onConfirm={() => act(`Team ${team.name} deleted`, () => api.teams.delete(team.name))}
        >
          <p>
            Its {team.members.length} member{team.members.length === 1 ? "" : "s"} lose what the
            team gave them. Pools that name it keep the name until someone changes them.
          </p>
        </ConfirmedAction>
      </header>
      <div className="p-4">
        {team.description && <p className="mb-2 text-muted">{team.description}</p>}
        {team.members.length === 0 ? (
          <p className="text-muted">No members yet: add someone by their login below.</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" aria-label={`Members of ${team.name}`}>
            {team.members.map((m) => (
              <li
                key={m}
                className="flex items-center gap-1 rounded border border-border bg-surface-2 py-0.5 pl-2 pr-0.5 font-mono text-xs"
              >
                {m}
                <button
                  type="button"
                  className="rounded p-0.5 text-muted hover:bg-surface hover:text-bad"
                  aria-label={`Remove ${m} from ${team.name}`}
                  title={`Remove ${m} from ${team.name}`}
                  onClick={() =>
                    void act(`${m} left ${team.name}`, () =>
                      api.teams.removeMember(team.name, m),
                    ).catch(() => undefined)
                  }
                >
                  <UserMinus className="size-3.5" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        <form
          className="mt-3 flex items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const who = login.trim();
            if (!who) return;
            setAdding(true);
            act(`${who} joined ${team.name}`, () => api.teams.addMember(team.name, who))
              .then(() => setLogin(""))
              .catch(() => undefined)
              .finally(() => setAdding(false));
          }}
        >
          <input
            aria-label={`Login to add to ${team.name}`}
            placeholder="login"
            value={login}
            maxLength={64}
            onChange={(e) => setLogin(e.target.value)}
            className={`${INPUT_CLASS} min-w-0 flex-1`}
          />
          <Button
            size="sm"
            type="submit"
            className="shrink-0 whitespace-nowrap"
            disabled={!login.trim() || adding}
            title={login.trim() ? undefined : "Type their login first"}
          >
            <UserPlus className="size-3.5" aria-hidden /> Add member
          </Button>
        </form>
      </div>
    </section>
  );
}

function NewTeamDialog({
  onClose,
  onCreate,
}: {
  onClose: () => void;
  onCreate: (name: string, description: string) => Promise<void>;
}) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problem = !name.trim()
    ? "Give the team a name"
    : TEAM_RULE.test(name.trim())
      ? undefined
      : "Name: 1 to 64 letters, digits, dots, dashes or underscores";
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="New team"
      description="Name it exactly as pools name it in owningTeam and ldapGroups."
      submitLabel="Create team"
      busy={busy}
      submitDisabledReason={problem}
      error={error}
      onSubmit={() => {
        setBusy(true);
        setError(null);
        onCreate(name.trim(), description.trim())
          .then(onClose)
          .catch((err: Error) => setError(`Not created: ${describeApiError(err)}`))
          .finally(() => setBusy(false));
      }}
    >
      <FormField label="Name" error={name.trim() ? problem : undefined}>
        {(ids) => (
          <input
            {...ids}
            value={name}
            maxLength={64}
            onChange={(e) => setName(e.target.value)}
            className={INPUT_CLASS}
            data-testid="team-name"
          />
        )}
      </FormField>
      <FormField label="Description (optional)">
        {(ids) => (
          <input
            {...ids}
            value={description}
            maxLength={256}
            onChange={(e) => setDescription(e.target.value)}
            className={INPUT_CLASS}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
