import type { ApiIssue } from "@peloton/api";

const issuesOf = (err: { data?: unknown }): ApiIssue[] =>
  (err.data as { issues?: ApiIssue[] | null } | undefined)?.issues ?? [];

/** Whether the API refused the request for its input (each issue names a field). */
export const hasInputIssues = (err: { data?: unknown }): boolean => issuesOf(err).length > 0;

/** An API error in words: each issue with the field it concerns, or the error's own message. */
export function describeApiError(err: { message: string; data?: unknown }): string {
  const issues = issuesOf(err);
  if (issues.length === 0) return err.message;
  return issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join("; ");
}
