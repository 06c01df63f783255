import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** scrypt with N = 2^17, r = 8, p = 1: OWASP's floor for scrypt; 128 MiB and ~0.3 s per hash. */
export const SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
/**
 * Under vitest only (which sets VITEST): hundreds of sign-ins per test file on a shared 2-core machine cannot
 * take 0.3 s and 128 MiB each. Nothing in a deployment sets it; passwords.test.ts checks SCRYPT_COST itself.
 */
const TEST_COST: ScryptCost = { N: 2 ** 12, r: 8, p: 1 };
export const HASHING_COST: ScryptCost = process.env.VITEST === 'true' ? TEST_COST : SCRYPT_COST;

const KEY_LENGTH = 32;
// scrypt needs 128 * N * r bytes (128 MiB at the floor); Node refuses more than maxmem, 32 MiB by default.
const MAX_MEMORY = 256 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, cost: ScryptCost = HASHING_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** The cost a stored hash was made with, or null when it is not a scrypt hash of ours. */
function costOf(stored: string): ScryptCost | null {
  const [scheme, n, r, p] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  return scheme === 'scrypt' && Object.values(cost).every(Number.isSafeInteger) ? cost : null;
}

/** The parameters travel with the hash, so raising the cost later still verifies old passwords. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const cost = costOf(stored);
  const [, , , , salt, hash] = stored.split('$');
  if (!cost || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), cost);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash made below today's cost, to be made again from the password at the next sign-in. */
export function needsRehash(stored: string, today: ScryptCost = HASHING_COST): boolean {
  const cost = costOf(stored);
  return cost === null || cost.N < today.N || cost.r < today.r || cost.p < today.p;
}

/** Verified against when the e-mail is unknown, so that a login takes as long whether the account exists or not. */
export const DECOY_HASH = await hashPassword(randomBytes(16).toString('hex'));
