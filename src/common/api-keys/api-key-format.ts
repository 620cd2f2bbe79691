import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format: `bcn_` + 32 random base62 characters (190 bits from crypto.randomBytes) +
 * 6 base62 characters of CRC-32 over the rest. The checksum lets the guard reject typos and
 * garbage without touching the database; the prefix makes leaked keys easy to find by scanners.
 */
export const KEY_PREFIX = 'bcn_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LEN = 32;
const CHECK_LEN = 6;
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LEN + CHECK_LEN;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LEN + CHECK_LEN}}$`);
/** Characters of a key kept for display (`bcn_` + 8). */
export const DISPLAY_PREFIX_LEN = KEY_PREFIX.length + 8;

function base62(n: number, width: number): string {
  let out = '';
  let v = n;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECK_LEN);
}

export function generateApiKey(): string {
  let random = '';
  while (random.length < RANDOM_LEN) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && random.length < RANDOM_LEN) random += ALPHABET[byte % 62]; // 248 = 4*62: unbiased
    }
  }
  const body = KEY_PREFIX + random;
  return body + checksum(body);
}

/** True when the key has our shape and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== KEY_LENGTH || !KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, KEY_LENGTH - CHECK_LEN);
  return checksum(body) === key.slice(KEY_LENGTH - CHECK_LEN);
}

export function hashApiKey(key: string): string {
  // One-shot hash: a fifth of createHash's cost, on every authenticated request (issue #25).
  return hash('sha256', key, 'hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LEN);
}
