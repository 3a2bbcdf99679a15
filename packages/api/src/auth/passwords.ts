/**
 * Passwords as better-auth keeps them (scrypt, in `auth_accounts.password`
 * under providerId "credential"), so a password an admin sets signs in
 * through better-auth's own endpoint. (s16-auth writes this file too: on
 * merge keep one copy; the exports are the agreed ones.)
 */
import { hashPassword as scrypt, verifyPassword as scryptCheck } from "better-auth/crypto";

export function hashPassword(plain: string): Promise<string> {
  return scrypt(plain);
}

export function verifyPassword(hash: string, plain: string): Promise<boolean> {
  return scryptCheck({ hash, password: plain });
}
