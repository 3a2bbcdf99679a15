"use client";
import { useQuery } from "@tanstack/react-query";
import { KeyRound, LogIn } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField, INPUT_CLASS } from "@/components/ui/form-field";
import { Notice } from "@/components/ui/notice";
import { fetchProviders, signInWithPassword, startSso } from "./sign-in-request";

/**
 * `/sign-in`: user name and password, and "Sign in with <name>" when the
 * server has an OpenID provider. Errors are said plainly beside the form and
 * the inputs keep what was typed; once signed in the browser goes to `next`
 * (already checked to be a path on this console) with a full load, so every
 * part of the page is read as the new person.
 */
export function SignInForm({ next, ssoError }: { next: string; ssoError?: string | undefined }) {
  const providers = useQuery({ queryKey: ["auth", "providers"], queryFn: fetchProviders });
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(ssoError ?? null);
  const [busy, setBusy] = useState<"password" | "sso" | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const sso = providers.data?.sso ?? null;
  const missing = !username.trim() ? "user name" : !password ? "password" : null;

  const submit = async () => {
    if (missing) {
      setError(`Give your ${missing}.`);
      return;
    }
    setBusy("password");
    setError(null);
    const problem = await signInWithPassword(username.trim(), password);
    if (problem === null) {
      window.location.assign(next);
      return;
    }
    setBusy(null);
    setError(problem);
    passwordRef.current?.select();
  };

  const ssoSignIn = async () => {
    setBusy("sso");
    setError(null);
    const started = await startSso(next);
    if ("url" in started) {
      window.location.assign(started.url);
      return;
    }
    setBusy(null);
    setError(started.error);
  };

  return (
    <div className="w-full max-w-sm space-y-5">
      <div className="flex items-center gap-2 text-lg font-semibold tracking-tight">
        <span aria-hidden className="inline-block size-6 rounded bg-accent" />
        Peloton
      </div>
      <section
        aria-labelledby="sign-in-title"
        className="space-y-4 rounded-lg border border-border bg-surface p-6 shadow-sm"
      >
        <div>
          <h1 id="sign-in-title" className="text-base font-semibold">
            Sign in
          </h1>
          <p className="text-muted">to the cluster console.</p>
        </div>

        {error && (
          <div id={errorId} data-testid="sign-in-error">
            <Notice tone="bad" title={error} />
          </div>
        )}

        <form
          className="space-y-3"
          noValidate
          aria-describedby={error ? errorId : undefined}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <FormField label="User name">
            {(ids) => (
              <input
                {...ids}
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                // biome-ignore lint/a11y/noAutofocus: the page exists to type into this field
                autoFocus
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                className={INPUT_CLASS}
              />
            )}
          </FormField>
          <FormField label="Password">
            {(ids) => (
              <input
                {...ids}
                ref={passwordRef}
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className={INPUT_CLASS}
              />
            )}
          </FormField>
          <Button type="submit" variant="primary" className="w-full" disabled={busy !== null}>
            <LogIn className="size-4" aria-hidden />
            {busy === "password" ? "Signing in…" : "Sign in"}
          </Button>
        </form>

        {sso && (
          <>
            <div className="flex items-center gap-3 text-xs text-muted" aria-hidden>
              <span className="h-px flex-1 bg-border" />
              or
              <span className="h-px flex-1 bg-border" />
            </div>
            <Button
              className="w-full"
              onClick={() => void ssoSignIn()}
              disabled={busy !== null}
              data-testid="sso-sign-in"
            >
              <KeyRound className="size-4" aria-hidden />
              {busy === "sso" ? "Opening…" : `Sign in with ${sso.name}`}
            </Button>
          </>
        )}
        {providers.isError && (
          <p className="text-xs text-muted">
            Could not ask the server for other ways to sign in; the user name and password work.
          </p>
        )}
      </section>
      <p className="text-xs text-muted">
        No account? An admin creates one: <code className="font-mono">peloton user create</code>, or
        Users in the console.
      </p>
    </div>
  );
}
