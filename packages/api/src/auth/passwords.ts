/**
 * Passwords as better-auth stores them (scrypt, `auth_accounts.password`
 * under providerId "credential"), so a password set by an admin signs in
 * through better-auth's own endpoint.
 */
import { hashPassword as scryptHash, verifyPassword as scryptVerify } from "better-auth/crypto";

export function hashPassword(plain: string): Promise<string> {
  return scryptHash(plain);
}

export function verifyPassword(hash: string, plain: string): Promise<boolean> {
  return scryptVerify({ hash, password: plain });
}
