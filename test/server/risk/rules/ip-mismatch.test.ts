import { describe, expect, test } from 'vitest';
import { clientReportedIp, ipMismatch, normalizeIp } from '../../../../src/server/risk/rules/ip-mismatch.js';
import { input, policy, session } from '../fixtures.js';

const lookup = (ipAddress: string | undefined, status: 'ok' | 'timeout' | 'error' = 'ok') => ({
  signals: { ipLookup: { status, durationMs: 10, ...(ipAddress !== undefined && { ipAddress }) } },
});

describe('IP_MISMATCH', () => {
  test('not found when the lookup answered the IP the service saw', () => {
    expect(ipMismatch.applies(input(session()), policy)).toBe(false);
  });

  test('found when the lookup answered another IP', () => {
    expect(ipMismatch.applies(input(session(lookup('203.0.113.9'))), policy)).toBe(true);
  });

  test('falls back to the declared ip_address when the lookup did not answer', () => {
    const declaredOther = session({
      declared: { ipAddress: '203.0.113.9' },
      ...lookup(undefined, 'timeout'),
    });
    expect(clientReportedIp(input(declaredOther))).toBe('203.0.113.9');
    expect(ipMismatch.applies(input(declaredOther), policy)).toBe(true);
    const declaredSame = session({ declared: { ipAddress: '198.51.100.7' }, signals: null });
    expect(ipMismatch.applies(input(declaredSame), policy)).toBe(false);
  });

  test('not found when the browser never reported an IP', () => {
    expect(ipMismatch.applies(input(session({ signals: null })), policy)).toBe(false);
    expect(ipMismatch.applies(input(session(lookup(undefined, 'error'))), policy)).toBe(false);
  });

  test('an IPv4-mapped IPv6 source is the same address', () => {
    expect(normalizeIp('::FFFF:198.51.100.7')).toBe('198.51.100.7');
    const mapped = session({ observed: { ipAddress: '::ffff:198.51.100.7' } });
    expect(ipMismatch.applies(input(mapped), policy)).toBe(false);
  });

  test('not compared across families (dual-stack buyers)', () => {
    const dualStack = session({ observed: { ipAddress: '2001:db8::1' } });
    expect(ipMismatch.applies(input(dualStack), policy)).toBe(false);
    const v6 = session({ observed: { ipAddress: '2001:db8::1' }, ...lookup('2001:DB8::2') });
    expect(ipMismatch.applies(input(v6), policy)).toBe(true);
    const v6Same = session({ observed: { ipAddress: '2001:db8::1' }, ...lookup('2001:DB8::1') });
    expect(ipMismatch.applies(input(v6Same), policy)).toBe(false);
  });
});
