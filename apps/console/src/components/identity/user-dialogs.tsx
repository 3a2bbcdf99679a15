"use client";
import { ROLE_LABELS, ROLES } from "@peloton/engine";
import { useState } from "react";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import { describeApiError } from "@/lib/api-errors";
import { FormDialog } from "./form-dialog";
import type { NewUser, Role, UserChange, UserRow } from "./types";

/** better-auth's shortest password; the server says the same if it is shorter. */
export const MIN_PASSWORD = 8;

export function passwordProblem(password: string): string | undefined {
  if (!password) return "give a password";
  if (password.length < MIN_PASSWORD) return `at least ${MIN_PASSWORD} characters`;
  return undefined;
}

function TeamChoices({
  teams,
  value,
  onChange,
}: {
  teams: readonly string[];
  value: readonly string[];
  onChange: (teams: string[]) => void;
}) {
  if (teams.length === 0)
    return <p className="text-xs text-muted">No teams yet: create them under Teams first.</p>;
  return (
    <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
      <legend className="mb-1 text-xs font-medium text-muted">Teams</legend>
      {teams.map((t) => (
        <label key={t} className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={value.includes(t)}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, t] : value.filter((v) => v !== t))
            }
          />
          <span className="font-mono text-xs">{t}</span>
        </label>
      ))}
    </fieldset>
  );
}

function RoleSelect({ value, onChange }: { value: Role; onChange: (r: Role) => void }) {
  return (
    <FormField
      label="Role"
      hint="Viewers read; operators run jobs in their teams' pools; leads also edit them"
    >
      {(ids) => (
        <select
          {...ids}
          value={value}
          onChange={(e) => onChange(e.target.value as Role)}
          className={INPUT_CLASS}
          data-testid="user-role"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** Creating a user (with an initial password) or changing one (everything but the login). */
export function UserDialog({
  user,
  teams,
  open,
  onOpenChange,
  onSave,
}: {
  /** null: a new user. */
  user: UserRow | null;
  teams: readonly string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (values: NewUser | UserChange) => Promise<unknown>;
}) {
  const [login, setLogin] = useState(user?.login ?? "");
  const [displayName, setDisplayName] = useState(user?.displayName ?? "");
  const [email, setEmail] = useState(user?.email ?? "");
  const [role, setRole] = useState<Role>(user?.role ?? "VIEWER");
  const [memberOf, setMemberOf] = useState<string[]>([...(user?.teams ?? [])]);
  const [hostMaintenance, setHostMaintenance] = useState(user?.hostMaintenance ?? false);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const missing = !login.trim()
    ? "Give a login"
    : !displayName.trim()
      ? "Give a display name"
      : user === null && passwordProblem(password)
        ? `Password: ${passwordProblem(password)}`
        : undefined;

  const save = async () => {
    setBusy(true);
    setError(null);
    const common = {
      displayName: displayName.trim(),
      role,
      teams: memberOf,
      hostMaintenance,
    };
    try {
      await onSave(
        user
          ? { login: user.login, ...common }
          : {
              login: login.trim(),
              ...common,
              ...(email.trim() ? { email: email.trim() } : {}),
              password,
            },
      );
      onOpenChange(false);
    } catch (err) {
      setError(`Not saved: ${describeApiError(err as Error)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={user ? `Change ${user.login}` : "New user"}
      description={
        user
          ? "A new role or teams apply from their next request."
          : "They sign in with this login and password, and can change nothing about themselves but their tokens."
      }
      submitLabel={user ? "Save changes" : "Create user"}
      busy={busy}
      submitDisabledReason={missing}
      error={error}
      onSubmit={() => void save()}
    >
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Login">
          {(ids) => (
            <input
              {...ids}
              value={login}
              disabled={user !== null}
              maxLength={64}
              autoComplete="off"
              onChange={(e) => setLogin(e.target.value)}
              className={INPUT_CLASS}
              data-testid="user-login"
            />
          )}
        </FormField>
        <FormField label="Display name">
          {(ids) => (
            <input
              {...ids}
              value={displayName}
              maxLength={128}
              onChange={(e) => setDisplayName(e.target.value)}
              className={INPUT_CLASS}
              data-testid="user-display-name"
            />
          )}
        </FormField>
      </div>
      {user === null && (
        <div className="grid grid-cols-2 gap-3">
          <FormField label="Email (optional)">
            {(ids) => (
              <input
                {...ids}
                type="email"
                value={email}
                maxLength={254}
                onChange={(e) => setEmail(e.target.value)}
                className={INPUT_CLASS}
              />
            )}
          </FormField>
          <FormField
            label="Initial password"
            error={password ? passwordProblem(password) : undefined}
            hint="Tell them privately; they can be given a new one later"
          >
            {(ids) => (
              <input
                {...ids}
                type="password"
                autoComplete="new-password"
                value={password}
                maxLength={256}
                onChange={(e) => setPassword(e.target.value)}
                className={INPUT_CLASS}
                data-testid="user-password"
              />
            )}
          </FormField>
        </div>
      )}
      <RoleSelect value={role} onChange={setRole} />
      <TeamChoices teams={teams} value={memberOf} onChange={setMemberOf} />
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={hostMaintenance}
          onChange={(e) => setHostMaintenance(e.target.checked)}
        />
        Host maintenance: may drain hosts and bring them back up
      </label>
    </FormDialog>
  );
}

/** An admin sets someone's password (they forgot it, or it must change). */
export function PasswordDialog({
  login,
  open,
  onOpenChange,
  onSave,
}: {
  login: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (password: string) => Promise<unknown>;
}) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problem = passwordProblem(password);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`New password for ${login}`}
      description="They sign in with it from now on; tell them privately."
      submitLabel="Set password"
      busy={busy}
      submitDisabledReason={problem && `Password: ${problem}`}
      error={error}
      onSubmit={() => {
        setBusy(true);
        setError(null);
        onSave(password)
          .then(() => onOpenChange(false))
          .catch((err: Error) => setError(`Not set: ${describeApiError(err)}`))
          .finally(() => setBusy(false));
      }}
    >
      <FormField label="Password" error={password ? problem : undefined}>
        {(ids) => (
          <input
            {...ids}
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={256}
            onChange={(e) => setPassword(e.target.value)}
            className={INPUT_CLASS}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
