import { describe, expect, it } from 'vitest';
import { type Caller, type KeyLookup, resolveCredentials } from '../../../src/server/http/auth.js';
import { CredentialCache } from '../../../src/server/http/credential-cache.js';
import { basic } from '../../helpers/app.js';

const KEY = `sk_test_${'a'.repeat(32)}`;
const caller: Caller = {
  kind: 'secret',
  merchant: { id: 'shop', allowedHosts: [], rateLimits: {} },
  testMode: true,
};

/** A key lookup that answers when the test says so, as a database does some time after it was asked. */
function pendingLookup() {
  let answer: (found: Awaited<ReturnType<KeyLookup>>) => void = () => {};
  const lookUp: KeyLookup = (_kind, keyHash) =>
    new Promise((resolve) => {
      answer = (found) => resolve(found && { ...found, keyHash });
    });
  return { lookUp, answer: () => answer({ caller, keyHash: '', expiresAt: null }) };
}

describe('the credential cache', () => {
  it('keeps a key verified by a lookup, so that its next request needs none', async () => {
    const cache = new CredentialCache(() => new Date());
    const { lookUp, answer } = pendingLookup();
    const resolving = resolveCredentials(lookUp, cache, basic(KEY));
    answer();
    const resolved = await resolving;
    expect(resolved).toEqual({ status: 'valid', caller });
    // The very caller the lookup resolved (its test mode read from the key), not a copy.
    expect(cache.get(basic(KEY))).toBe(resolved.status === 'valid' ? resolved.caller : undefined);
  });

  it('does not keep what a lookup found before the merchant changed (a key revoked or rolled meanwhile)', async () => {
    const cache = new CredentialCache(() => new Date());
    const { lookUp, answer } = pendingLookup();
    const resolving = resolveCredentials(lookUp, cache, basic(KEY));
    // The lookup read the key as current; a roll or a revoke commits and drops the merchant before it returns.
    cache.forgetMerchant('shop');
    answer();
    expect(await resolving).toEqual({ status: 'valid', caller });
    expect(cache.get(basic(KEY))).toBeUndefined();
  });
});
