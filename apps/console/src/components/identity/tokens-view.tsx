"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatDistanceStrict } from "date-fns";
import { KeyRound, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, RowsSkeleton } from "@/components/ui/card";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import { LoadError } from "@/components/ui/load-error";
import { Notice } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { describeApiError } from "@/lib/api-errors";
import { formatAbsolute } from "@/lib/time";
import { CopyButton } from "./copy-button";
import { IDENTITY_KEYS, useIdentityApi } from "./identity-api";
import { PageTitle, TD, TH } from "./page-title";
import type { CreatedToken, TokenRow } from "./types";

const EXPIRY_CHOICES = [
  { days: 30, label: "in 30 days" },
  { days: 90, label: "in 90 days" },
  { days: 365, label: "in a year" },
  { days: 0, label: "never" },
] as const;

/** Token names: what `tokens.revoke` and the audit log's `token:<name>` use. */
const NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function nameProblem(name: string, taken: readonly TokenRow[]): string | undefined {
  if (!name) return undefined;
  if (!NAME_RULE.test(name))
    return "1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit";
  if (taken.some((t) => t.name === name && !t.revokedAt))
    return `you already have a token named ${name}; revoke it or pick another name`;
  return undefined;
}

/**
 * `/tokens`: the signed-in person's API tokens for the CLI and scripts. A new
 * token is shown once, with a copy button; the list shows only prefixes, when
 * each was last used and when it expires; revoking asks first.
 */
export function TokensView() {
  const api = useIdentityApi();
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: IDENTITY_KEYS.tokens, queryFn: api.tokens.list });
  const [name, setName] = useState("");
  const [days, setDays] = useState<number>(90);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api.tokens.create({ name: name.trim(), ...(days > 0 ? { expiresInDays: days } : {}) }),
    onSuccess: (token) => {
      setCreated(token);
      setName("");
      void queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.tokens });
    },
  });
  const revoke = async (tokenName: string) => {
    try {
      await api.tokens.revoke(tokenName);
      toast.success(`Token ${tokenName} revoked`, {
        description: "Requests with it are refused from now on.",
      });
      if (created?.name === tokenName) setCreated(null);
      await queryClient.invalidateQueries({ queryKey: IDENTITY_KEYS.tokens });
    } catch (err) {
      toast.error(`${tokenName} was not revoked: ${describeApiError(err as Error)}`);
      throw err;
    }
  };
  const rows = tokens.data ?? [];
  const problem = nameProblem(name.trim(), rows);

  return (
    <div className="max-w-5xl space-y-4">
      <PageTitle
        title="API tokens"
        description={
          <>
            For the command line and scripts: <code className="font-mono">peloton login</code>{" "}
            stores one, or set <code className="font-mono">PELOTON_TOKEN</code>. A token acts as
            you, with your role and teams.
          </>
        }
      />

      {created && (
        <Notice
          tone="warn"
          title={`Token ${created.name} created: copy it now, it is shown only this once`}
          testId="new-token"
          action={
            <Button size="sm" variant="ghost" onClick={() => setCreated(null)}>
              I have copied it
            </Button>
          }
        >
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code
              className="select-all break-all rounded border border-border bg-surface-2 px-2 py-1 font-mono text-fg"
              data-testid="new-token-value"
            >
              {created.token}
            </code>
            <CopyButton text={created.token} label="Copy token" />
          </div>
          <p className="mt-2">
            Only its hash is kept: if it is lost, revoke it and create another. Use it as{" "}
            <code className="font-mono">Authorization: Bearer …</code> or{" "}
            <code className="font-mono">PELOTON_TOKEN=… peloton job list</code>.
          </p>
        </Notice>
      )}

      <Card title="New token">
        <form
          className="flex flex-wrap items-start gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim() || problem) return;
            create.mutate();
          }}
        >
          <FormField
            label="Name"
            error={problem}
            hint="What it is for, e.g. laptop-cli or ci-deploy"
            className="w-72"
          >
            {(ids) => (
              <input
                {...ids}
                value={name}
                maxLength={64}
                onChange={(e) => setName(e.target.value)}
                className={INPUT_CLASS}
                data-testid="token-name"
              />
            )}
          </FormField>
          <FormField label="Expires" className="w-40">
            {(ids) => (
              <select
                {...ids}
                value={days}
                onChange={(e) => setDays(Number(e.target.value))}
                className={INPUT_CLASS}
              >
                {EXPIRY_CHOICES.map((c) => (
                  <option key={c.days} value={c.days}>
                    {c.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <Button
            type="submit"
            variant="primary"
            className="mt-5"
            disabled={!name.trim() || !!problem || create.isPending}
            title={!name.trim() ? "Give the token a name first" : problem}
          >
            <KeyRound className="size-4" aria-hidden />
            {create.isPending ? "Creating…" : "Create token"}
          </Button>
        </form>
        {create.isError && (
          <p role="alert" className="mt-2 text-xs text-bad">
            Not created: {describeApiError(create.error)}
          </p>
        )}
      </Card>

      <Card title="Your tokens">
        {tokens.isError ? (
          <LoadError what="Your tokens" error={tokens.error} onRetry={() => tokens.refetch()} />
        ) : tokens.isPending ? (
          <RowsSkeleton />
        ) : rows.length === 0 ? (
          <EmptyState title="You have no tokens yet">
            Create one above to use the CLI or a script as yourself; it is shown once.
          </EmptyState>
        ) : (
          <table className="w-full" data-testid="tokens-table">
            <caption className="sr-only">Your API tokens</caption>
            <thead>
              <tr className="border-b border-border">
                <th className={TH}>Name</th>
                <th className={TH}>Token</th>
                <th className={TH}>Created</th>
                <th className={TH}>Last used</th>
                <th className={TH}>Expires</th>
                <th className={TH}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <TokenRowView key={t.id} token={t} onRevoke={() => revoke(t.name)} />
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}

/** "in 3 months" or "expired 2 days ago", the date on hover (RelativeTime reads the past only). */
function Expiry({ at }: { at: Date }) {
  const past = at.getTime() <= Date.now();
  const distance = formatDistanceStrict(at, Date.now());
  return (
    <time dateTime={at.toISOString()} title={formatAbsolute(at)}>
      {past ? `expired ${distance} ago` : `in ${distance}`}
    </time>
  );
}

function TokenRowView({ token: t, onRevoke }: { token: TokenRow; onRevoke: () => Promise<void> }) {
  const expired = t.expiresAt !== null && t.expiresAt.getTime() < Date.now();
  return (
    <tr
      className={`border-b border-border last:border-0 ${t.revokedAt || expired ? "text-muted" : ""}`}
      data-token={t.name}
    >
      <td className={`${TD} font-medium`}>{t.name}</td>
      <td className={`${TD} font-mono text-xs`}>{t.prefix}…</td>
      <td className={TD}>
        <RelativeTime at={t.createdAt} />
      </td>
      <td className={TD}>{t.lastUsedAt ? <RelativeTime at={t.lastUsedAt} /> : "never"}</td>
      <td className={TD}>{t.expiresAt ? <Expiry at={t.expiresAt} /> : "never"}</td>
      <td className={`${TD} text-right`}>
        {t.revokedAt ? (
          <span className="text-xs" data-testid="token-revoked">
            revoked <RelativeTime at={t.revokedAt} />
          </span>
        ) : (
          <ConfirmedAction
            label="Revoke"
            icon={<Trash2 className="size-3.5" aria-hidden />}
            tone="danger"
            title={`Revoke ${t.name}?`}
            confirmLabel="Revoke token"
            onConfirm={onRevoke}
          >
            <p>
              Every request with <span className="font-mono">{t.prefix}…</span> is refused from now
              on: a CLI or script using it must sign in again or get a new token.
            </p>
          </ConfirmedAction>
        )}
      </td>
    </tr>
  );
}
