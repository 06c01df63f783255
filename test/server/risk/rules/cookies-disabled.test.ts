import { describe, expect, test } from 'vitest';
import { cookiesDisabled } from '../../../../src/server/risk/rules/cookies-disabled.js';
import { input, policy, session } from '../fixtures.js';

describe('COOKIES_DISABLED', () => {
  test('found when the browser declared cookies disabled', () => {
    expect(cookiesDisabled.applies(input(session({ declared: { cookiesAccepted: false } })), policy)).toBe(
      true,
    );
  });
  test('not found when cookies are accepted', () => {
    expect(cookiesDisabled.applies(input(session()), policy)).toBe(false);
  });
});
