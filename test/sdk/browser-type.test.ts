import { describe, expect, it } from 'vitest';
import { browserType } from '../../src/sdk/src/browser-type.js';
import { USER_AGENT_VECTORS as vectors } from '../vectors/user-agents.js';

// The same vectors hold the service's ua-parser-js mapping to account: both must agree on every one.

describe('browserType', () => {
  it('has vectors for every browser type', () => {
    const types = new Set(vectors.map((v) => v.type));
    expect([...types].sort()).toEqual(['Chrome', 'Edge', 'Firefox', 'Opera', 'Other', 'Safari']);
  });

  it.each(vectors.map((v) => [v.name, v.user_agent, v.type] as const))(
    '%s → %s',
    (_name, userAgent, type) => {
      expect(browserType(userAgent)).toBe(type);
    },
  );

  it('answers Other for strings that are not user agents', () => {
    for (const ua of ['', 'Safari', 'Chrome', 'Mozilla/5.0', 'x'.repeat(5000)])
      expect(browserType(ua)).toBe('Other');
  });
});
