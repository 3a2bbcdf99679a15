/**
 * People, teams and tokens: the schemas of the `me`, `users`, `teams` and
 * `tokens` routers, shared with the CLI (`peloton user …`) and the console's
 * admin pages. Imports nothing but zod and the engine's text bound, so it is
 * safe in a browser bundle.
 */
import { boundedText, ROLES } from "@peloton/engine";
import { z } from "zod";
import { opaqueCursorSchema } from "./cursors.ts";

export const MAX_LOGIN_LENGTH = 64;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_DISPLAY_NAME_LENGTH = 128;
export const MAX_TEAM_NAME_LENGTH = 64;
export const MAX_TEAM_DESCRIPTION_LENGTH = 500;
export const MAX_TOKEN_NAME_LENGTH = 64;
export const MAX_TOKEN_DAYS = 3650;
/** Teams a person belongs to at once (pools name teams; a list this long is a mistake). */
export const MAX_TEAMS_PER_USER = 50;

export const loginSchema = boundedText(MAX_LOGIN_LENGTH, {
  trim: true,
  min: 1,
  minMessage: "name a user (login)",
}).regex(/^[a-z0-9._-]+$/, "a login is lower-case letters, digits, '.', '_' and '-'");

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `a password has at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `a password has at most ${MAX_PASSWORD_LENGTH} characters`);

export const displayNameSchema = boundedText(MAX_DISPLAY_NAME_LENGTH, {
  trim: true,
  min: 1,
  minMessage: "a display name is needed",
});

/** What pools name in owningTeam and ldapGroups. */
export const teamNameSchema = boundedText(MAX_TEAM_NAME_LENGTH, {
  trim: true,
  min: 1,
  minMessage: "name a team",
}).regex(/^[a-z0-9][a-z0-9._-]*$/, "a team name is lower-case letters, digits, '.', '_' and '-'");

export const tokenNameSchema = boundedText(MAX_TOKEN_NAME_LENGTH, {
  trim: true,
  min: 1,
  minMessage: "name the token",
}).regex(/^[A-Za-z0-9._:-]+$/, "a token name is letters, digits, '.', '_', ':' and '-'");

export const roleSchema = z.enum(ROLES);

const teamsSchema = z
  .array(teamNameSchema)
  .max(MAX_TEAMS_PER_USER, `at most ${MAX_TEAMS_PER_USER} teams`);

export const userIdSchema = z.uuid("a user id is a UUID");

export const tokenListInput = z
  .object({
    /** Someone else's tokens (admins); the actor's own when absent. */
    userId: userIdSchema.optional(),
  })
  .default({});

export const tokenCreateInput = z.object({
  name: tokenNameSchema,
  expiresInDays: z
    .number()
    .int("expiresInDays is a whole number of days")
    .min(1, "a token lives at least 1 day")
    .max(MAX_TOKEN_DAYS, `a token lives at most ${MAX_TOKEN_DAYS} days`)
    .optional(),
  /** Admins: a token for someone else (the actor's own when absent). */
  userId: userIdSchema.optional(),
});

export const tokenRevokeInput = z.object({
  name: tokenNameSchema,
  /** Admins: someone else's token (the actor's own when absent). */
  userId: userIdSchema.optional(),
});

export const userListInput = z.object({
  limit: z.number().int().min(1).max(200).default(50),
  cursor: opaqueCursorSchema.nullish(),
  /** Part of the login or display name. */
  search: boundedText(MAX_LOGIN_LENGTH, { trim: true }).optional(),
});

export const userCreateInput = z.object({
  login: loginSchema,
  displayName: displayNameSchema,
  email: z.email("an email address like ada@example.com").max(254).optional(),
  role: roleSchema.default("VIEWER"),
  teams: teamsSchema.default([]),
  hostMaintenance: z.boolean().default(false),
  password: passwordSchema,
});

export const userUpdateInput = z.object({
  login: loginSchema,
  displayName: displayNameSchema.optional(),
  role: roleSchema.optional(),
  teams: teamsSchema.optional(),
  hostMaintenance: z.boolean().optional(),
});

export const userLoginInput = z.object({ login: loginSchema });

export const userSetPasswordInput = z.object({ login: loginSchema, password: passwordSchema });

export const teamCreateInput = z.object({
  name: teamNameSchema,
  description: boundedText(MAX_TEAM_DESCRIPTION_LENGTH, { trim: true }).default(""),
});

export const teamNameInput = z.object({ name: teamNameSchema });

export const teamMemberInput = z.object({ team: teamNameSchema, login: loginSchema });
