import type { ApiIssue } from "@peloton/api";

/** An API error in words: each issue with the field it concerns, or the error's own message. */
export function describeApiError(err: { message: string; data?: unknown }): string {
  const issues = (err.data as { issues?: ApiIssue[] | null } | undefined)?.issues;
  if (!issues?.length) return err.message;
  return issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join("; ");
}
