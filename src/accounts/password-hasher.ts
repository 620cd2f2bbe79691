import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first configuration: 19 MiB of memory,
 * 2 iterations, parallelism 1. The PHC string keeps the parameters, so raising them later still
 * verifies old hashes (and `needsRehash` tells when to upgrade one at sign-in).
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash signs nobody in
  }
}

export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, ARGON2_OPTIONS);
}

/** A one-time password: 20 characters of base62-like text (about 119 bits), easy to copy. */
export function oneTimePassword(): string {
  return randomBytes(15)
    .toString('base64url')
    .replace(/[-_]/g, (c) => (c === '-' ? 'x' : 'y'));
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}
