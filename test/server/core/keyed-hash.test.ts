import { describe, expect, test } from 'vitest';
import { deriveKey, keyedHash } from '../../../src/server/core/keyed-hash.js';

const ROOT = 'vigia-test-card-hash-key-not-for-production-use';

describe('keyed hashes', () => {
  test('match an independent implementation (OpenSSL 3: HKDF-SHA256, then HMAC-SHA256 cut to 128 bits)', () => {
    // openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt key:$ROOT -kdfopt salt: -kdfopt info:vigia:device-graph HKDF
    const key = deriveKey(ROOT, 'device-graph');
    expect(key.toString('hex')).toBe('40974fc1ced75e020251da3886050377973a28ceec5110708effa74c1a2deccc');
    // printf 'visitor\0abc' | openssl dgst -sha256 -mac HMAC -macopt hexkey:<that key>, first 32 hex digits
    expect(keyedHash(key, 'visitor', 'abc')).toBe('2deb831fa1b2330805dcaf69b3aec3bb');
  });

  test('another purpose or another root gives an unrelated key', () => {
    const key = deriveKey(ROOT, 'device-graph');
    expect(deriveKey(ROOT, 'another-purpose').equals(key)).toBe(false);
    expect(deriveKey(`${ROOT}!`, 'device-graph').equals(key)).toBe(false);
  });

  test('one value in two domains gives two unrelated hashes; the value is not in its hash', () => {
    const key = deriveKey(ROOT, 'device-graph');
    const visitor = keyedHash(key, 'visitor', '12345678909');
    const buyer = keyedHash(key, 'buyer', '12345678909');
    expect(visitor).toMatch(/^[0-9a-f]{32}$/);
    expect(buyer).not.toBe(visitor);
    expect(keyedHash(key, 'visitor', '12345678909')).toBe(visitor);
    expect(visitor).not.toContain('12345678909');
    // The separator keeps a domain from running into its value: ("ab", "c") is not ("a", "bc").
    expect(keyedHash(key, 'ab', 'c')).not.toBe(keyedHash(key, 'a', 'bc'));
  });
});
