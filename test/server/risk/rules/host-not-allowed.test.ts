import { describe, expect, test } from 'vitest';
import { hostNotAllowed } from '../../../../src/server/risk/rules/host-not-allowed.js';
import { input, policy, session } from '../fixtures.js';

describe('HOST_NOT_ALLOWED', () => {
  test('never found while allowed_hosts is empty', () => {
    const anywhere = session({ declared: { hostName: 'evil.example.net' } });
    expect(hostNotAllowed.applies(input(anywhere), policy)).toBe(false);
  });

  test('found when the declared host is not in allowed_hosts', () => {
    const elsewhere = session({ declared: { hostName: 'evil.example.net' } });
    expect(hostNotAllowed.applies(input(elsewhere, { allowedHosts: ['shop.example.com'] }), policy)).toBe(
      true,
    );
  });

  test('found when the Origin the service saw is not in allowed_hosts', () => {
    const origin = session({ observed: { origin: 'https://evil.example.net' } });
    expect(hostNotAllowed.applies(input(origin, { allowedHosts: ['shop.example.com'] }), policy)).toBe(true);
  });

  test('exact hosts and *. wildcards match (case-insensitively)', () => {
    expect(hostNotAllowed.applies(input(session(), { allowedHosts: ['shop.example.com'] }), policy)).toBe(
      false,
    );
    const sub = session({
      declared: { hostName: 'Checkout.Example.com' },
      observed: { origin: 'https://checkout.example.com' },
    });
    expect(hostNotAllowed.applies(input(sub, { allowedHosts: ['*.example.com'] }), policy)).toBe(false);
    const apex = session({ declared: { hostName: 'example.com' }, observed: { origin: null } });
    expect(hostNotAllowed.applies(input(apex, { allowedHosts: ['*.example.com'] }), policy)).toBe(true);
  });

  test('a missing Origin (server-side session creation) is judged by host_name alone', () => {
    const noOrigin = session({ observed: { origin: null } });
    expect(hostNotAllowed.applies(input(noOrigin, { allowedHosts: ['shop.example.com'] }), policy)).toBe(
      false,
    );
  });
});
