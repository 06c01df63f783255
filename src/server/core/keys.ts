import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'secret' | 'public' | 'operator';

/** How long a rolled key keeps working unless the roll says otherwise (merchant and operator keys alike). */
export const DEFAULT_KEY_GRACE_SECONDS = 24 * 60 * 60;
/** The longest grace a roll may give: a replaced key is retired within a week. */
export const MAX_KEY_GRACE_SECONDS = 7 * 24 * 60 * 60;

/** Keys are opaque random strings with a readable prefix; only their SHA-256 hash is stored. */
export function generateKey(kind: KeyKind, live: boolean): string {
  const mode = live ? 'live' : 'test';
  const prefix = kind === 'secret' ? `sk_${mode}_` : kind === 'public' ? `pk_${mode}_` : 'op_';
  return prefix + randomBytes(24).toString('base64url');
}

/** A test-mode key (`sk_test_…`, `pk_test_…`): test cards and test outcomes apply, nothing is live. */
export function isTestKey(key: string): boolean {
  return /^(sk|pk)_test_/.test(key);
}

export function keyKind(key: string): KeyKind | null {
  if (/^sk_(test|live)_[A-Za-z0-9_-]{16,}$/.test(key)) return 'secret';
  if (/^pk_(test|live)_[A-Za-z0-9_-]{16,}$/.test(key)) return 'public';
  if (/^op_[A-Za-z0-9_-]{16,}$/.test(key)) return 'operator';
  return null;
}

// The one-shot `hash` costs a third of a `createHash` object: every authenticated request hashes its key.
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
