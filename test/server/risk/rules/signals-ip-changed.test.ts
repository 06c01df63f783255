import { describe, expect, test } from 'vitest';
import { analyzeRisk } from '../../../../src/server/risk/engine.js';
import { signalsIpChanged } from '../../../../src/server/risk/rules/signals-ip-changed.js';
import { CHROME_UA, input, policy, session } from '../fixtures.js';

const reportedFrom = (ipAddress: string) =>
  session({ signals: { observed: { ipAddress, userAgent: CHROME_UA } } });

describe('SIGNALS_IP_CHANGED', () => {
  test('not found when the report came from the IP that created the session (mapped IPv4 included)', () => {
    expect(signalsIpChanged.applies(input(reportedFrom('198.51.100.7')), policy)).toBe(false);
    expect(signalsIpChanged.applies(input(reportedFrom('::ffff:198.51.100.7')), policy)).toBe(false);
  });
  test('found when it came from another IP of the same family; alone it stays approved', () => {
    const moved = reportedFrom('203.0.113.50');
    expect(signalsIpChanged.applies(input(moved), policy)).toBe(true);
    expect(analyzeRisk(input(moved), policy).status).toBe('approved');
  });
  test('not compared across families (a dual-stack browser may use both)', () => {
    expect(signalsIpChanged.applies(input(reportedFrom('2001:db8::7')), policy)).toBe(false);
  });
  test('not found without a report', () => {
    expect(signalsIpChanged.applies(input(session({ signals: null })), policy)).toBe(false);
  });
});
