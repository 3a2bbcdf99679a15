/**
 * Pages need a signed-in person (docs/identity.md): a page request without
 * better-auth's session cookie goes to /sign-in, remembering where it was
 * going. This only looks for the cookie; whether the session is valid is the
 * API's to decide on every request (an expired cookie gets 401s, and the
 * console sends the person back here). Never for the sign-in page itself,
 * the API (/api/*: it answers 401 in its own words, and better-auth lives
 * there), Next's assets or static files.
 */
import { type NextRequest, NextResponse } from "next/server";

/** better-auth's default cookie name; `__Secure-` first when served over HTTPS. */
const SESSION_COOKIES = ["better-auth.session_token", "__Secure-better-auth.session_token"];

export function proxy(request: NextRequest) {
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = "";
  if (pathname !== "/") url.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(url);
}

export const config = {
  // Everything but the sign-in page, the API, Next's own files and static files (by their
  // extension: a pool's path may hold a dot, so not just any).
  matcher: [
    "/((?!sign-in(?:/|$)|api/|_next/|.*\\.(?:ico|png|svg|jpe?g|gif|webp|txt|xml|webmanifest|css|js|map|woff2?)$).*)",
  ],
};
