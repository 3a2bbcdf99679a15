export type {
  IdentityFailure,
  IdentityFailureKind,
  IdentityResult,
} from "./outcome.ts";
export { createIdentityService, type IdentityService } from "./service.ts";
export type { TokenCreation } from "./tokens.ts";
export { placeholderEmail, type UserCreation, type UserUpdate } from "./users.ts";
