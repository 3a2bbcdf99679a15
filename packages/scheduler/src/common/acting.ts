/**
 * Who a write is done for, as the audit log records it (docs/identity.md):
 * the person's login and how they came ("session", "token:<name>"; "system"
 * for the scheduler's own work). The API builds it from its actor
 * (`actingOf(ctx)`); the scheduler never decides from it, only records it.
 */
export interface Acting {
  login: string;
  via: string;
}
