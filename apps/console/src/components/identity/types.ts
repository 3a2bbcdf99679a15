/**
 * The people routers' shapes (docs/identity.md; `me`, `tokens`, `users`,
 * `teams`), as the API declares them.
 */
import type { RouterInputs, RouterOutputs } from "@/lib/api-types";

export type { Role } from "@peloton/engine";

/** `me.get`: who is signed in, with the teams they belong to. */
export type Me = RouterOutputs["me"]["get"];
/** `tokens.list` row (the token itself is never listed, only its prefix). */
export type TokenRow = RouterOutputs["tokens"]["list"][number];
/** `tokens.create`: the one time the token is shown. */
export type CreatedToken = RouterOutputs["tokens"]["create"];
export type UsersPage = RouterOutputs["users"]["list"];
export type UserRow = UsersPage["items"][number];
export type TeamRow = RouterOutputs["teams"]["list"][number];
export type NewUser = RouterInputs["users"]["create"];
export type UserChange = RouterInputs["users"]["update"];
