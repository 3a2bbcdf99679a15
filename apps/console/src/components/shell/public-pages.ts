/** Pages anyone may open without signing in (proxy.ts lets them through; they have no frame). */
export const SIGN_IN_PATH = "/sign-in";

export function isPublicPage(pathname: string): boolean {
  return pathname === SIGN_IN_PATH || pathname.startsWith(`${SIGN_IN_PATH}/`);
}

/**
 * Where to go after signing in: a path on this console only. Anything else
 * ("//evil.example", "https://…", "/\\evil", the sign-in page itself) goes to
 * the overview, so a link cannot send someone elsewhere after they sign in.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  // Browsers drop tabs and newlines in URLs: "/\t/evil.example" would become "//evil.example".
  if ([...next].some((c) => c.charCodeAt(0) < 0x20)) return "/";
  const pathOnly = next.split(/[?#]/)[0] ?? "/";
  return isPublicPage(pathOnly) ? "/" : next;
}
