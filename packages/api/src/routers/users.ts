/**
 * People (console `/admin/users`, `peloton user …`): admins list, create,
 * change, disable and enable users and set their passwords. The password is
 * hashed here (better-auth's scrypt); the identity service stores the hash
 * with the audit row, and neither ever logs the password.
 */
import type { UserRecord } from "@peloton/storage";
import { actingOf, authorizedProcedure } from "../auth/authorize.ts";
import { hashPassword } from "../auth/passwords.ts";
import {
  userCreateInput,
  userListInput,
  userLoginInput,
  userSetPasswordInput,
  userUpdateInput,
} from "../schemas/identity.ts";
import { router } from "../trpc.ts";
import { unwrap } from "./identity-outcome.ts";

const manageUser = (_ctx: unknown, input: { login: string }) => ({
  request: { kind: "user.manage" as const },
  target: { type: "user", id: input.login },
});

/** What a client sees of a user (the record has nothing secret; this fixes the shape). */
export function userView(u: UserRecord) {
  return {
    id: u.id,
    login: u.login,
    displayName: u.displayName,
    email: u.email,
    role: u.role,
    teams: u.teams,
    hostMaintenance: u.hostMaintenance,
    disabledAt: u.disabledAt,
    createdAt: u.createdAt,
  };
}

export const usersRouter = router({
  list: authorizedProcedure(userListInput, () => ({
    request: { kind: "user.list" as const },
    target: { type: "user", id: "*" },
  })).query(async ({ ctx, input }) => {
    const page = await ctx.gateway.identity.listUsers({
      limit: input.limit,
      cursor: input.cursor ?? null,
      search: input.search,
    });
    return { items: page.items.map(userView), nextCursor: page.nextCursor };
  }),

  create: authorizedProcedure(userCreateInput, manageUser).mutation(async ({ ctx, input }) => {
    const { password, ...user } = input;
    const created = await ctx.scheduler.identity.users.create(actingOf(ctx), {
      ...user,
      passwordHash: await hashPassword(password),
    });
    return userView(unwrap(created));
  }),

  update: authorizedProcedure(userUpdateInput, manageUser).mutation(async ({ ctx, input }) =>
    userView(unwrap(await ctx.scheduler.identity.users.update(actingOf(ctx), input))),
  ),

  /** Disabled and signed out everywhere; their tokens are refused from the next request. */
  disable: authorizedProcedure(userLoginInput, manageUser).mutation(async ({ ctx, input }) =>
    userView(unwrap(await ctx.scheduler.identity.users.disable(actingOf(ctx), input.login))),
  ),

  enable: authorizedProcedure(userLoginInput, manageUser).mutation(async ({ ctx, input }) =>
    userView(unwrap(await ctx.scheduler.identity.users.enable(actingOf(ctx), input.login))),
  ),

  setPassword: authorizedProcedure(userSetPasswordInput, manageUser).mutation(
    async ({ ctx, input }) => {
      const hash = await hashPassword(input.password);
      unwrap(await ctx.scheduler.identity.users.setPassword(actingOf(ctx), input.login, hash));
      return { changed: true as const };
    },
  ),
});
