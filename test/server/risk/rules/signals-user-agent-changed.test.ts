import { describe, expect, test } from 'vitest';
import { signalsUserAgentChanged } from '../../../../src/server/risk/rules/signals-user-agent-changed.js';
import { CHROME_UA, FIREFOX_UA, input, policy, session } from '../fixtures.js';

const reportedWith = (userAgent: string | null, ipAddress = '198.51.100.7') =>
  session({ signals: { observed: { ipAddress, userAgent } } });

describe('SIGNALS_USER_AGENT_CHANGED', () => {
  test('not found when the report came with the User-Agent of the creating request', () => {
    expect(signalsUserAgentChanged.applies(input(reportedWith(CHROME_UA)), policy)).toBe(false);
  });
  test('found when the report came from another client (another User-Agent, or none)', () => {
    expect(signalsUserAgentChanged.applies(input(reportedWith(FIREFOX_UA)), policy)).toBe(true);
    expect(signalsUserAgentChanged.applies(input(reportedWith('node')), policy)).toBe(true);
    expect(signalsUserAgentChanged.applies(input(reportedWith(null)), policy)).toBe(true);
  });
  test('not found without a report, or for a report stored before the service kept its request', () => {
    expect(signalsUserAgentChanged.applies(input(session({ signals: null })), policy)).toBe(false);
    expect(signalsUserAgentChanged.applies(input(session({ signals: { observed: null } })), policy)).toBe(
      false,
    );
  });
});
