/**
 * The roles a person holds (docs/identity.md), weakest first. Each includes
 * what the one before it may do: a viewer reads everything; an operator acts
 * on jobs and tasks in the pools their teams may submit to; a team lead also
 * edits, creates children under and deletes the pools their team owns; an
 * admin does everything, including users, teams and host maintenance.
 * Host maintenance below admin is a separate grant, not a role.
 */
export const ROLES = ["VIEWER", "OPERATOR", "TEAM_LEAD", "ADMIN"] as const;
export type Role = (typeof ROLES)[number];

/** How a role reads in the console and the CLI. */
export const ROLE_LABELS = {
  VIEWER: "viewer",
  OPERATOR: "operator",
  TEAM_LEAD: "team lead",
  ADMIN: "admin",
} as const satisfies Record<Role, string>;

/** True when `held` includes everything `needed` may do. */
export function roleAtLeast(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed);
}
