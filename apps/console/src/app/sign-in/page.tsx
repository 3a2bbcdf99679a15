import type { Metadata } from "next";
import { SignInForm } from "@/components/identity/sign-in-form";
import { safeNextPath } from "@/components/shell/public-pages";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next, error } = await searchParams;
  return (
    <SignInForm
      next={safeNextPath(typeof next === "string" ? next : null)}
      // better-auth comes back here with ?error=<code> when an OpenID sign-in fails.
      ssoError={
        typeof error === "string" ? `Single sign-on did not complete (${error}).` : undefined
      }
    />
  );
}
