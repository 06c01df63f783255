import { createHmac, hkdfSync } from 'node:crypto';

/**
 * A key for one purpose, derived from a root secret (HKDF-SHA256, the purpose as its info): a store of keyed
 * hashes made for one purpose cannot be matched against another's, and neither reveals the root.
 */
export function deriveKey(root: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', root, '', `vigia:${purpose}`, 32));
}

/** Bytes kept of each HMAC: 128 bits, far from a collision among a platform's values, half the index of 256. */
const KEPT_BYTES = 16;

/**
 * HMAC-SHA256 of `value` under `key`, separated by `domain` (the same value hashed for two fields gives two
 * unrelated keys), truncated to 128 bits, hex. Without the key, nothing can be tested against guessed values.
 */
export function keyedHash(key: Buffer, domain: string, value: string): string {
  return createHmac('sha256', key)
    .update(`${domain}\u0000${value}`)
    .digest()
    .subarray(0, KEPT_BYTES)
    .toString('hex');
}
