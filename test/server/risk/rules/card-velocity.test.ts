import { describe, expect, test } from 'vitest';
import { cardVelocity } from '../../../../src/server/risk/rules/card-velocity.js';
import { input, policy } from '../fixtures.js';

describe('CARD_VELOCITY', () => {
  const max = policy.velocity.card.maxCharges;
  test(`found when the card already has ${max} charges in the window`, () => {
    expect(cardVelocity.applies(input(undefined, { history: { cardCharges: max } }), policy)).toBe(true);
  });
  test('not found below the limit', () => {
    expect(cardVelocity.applies(input(undefined, { history: { cardCharges: max - 1 } }), policy)).toBe(false);
    expect(cardVelocity.applies(input(undefined, { history: { cardCharges: 0 } }), policy)).toBe(false);
  });
  test('follows the policy', () => {
    const lax = { ...policy, velocity: { ...policy.velocity, card: { maxCharges: 50, windowMinutes: 60 } } };
    expect(cardVelocity.applies(input(undefined, { history: { cardCharges: max } }), lax)).toBe(false);
  });
});
