import { describe, expect, test } from 'vitest';
import { deviceVelocity } from '../../../../src/server/risk/rules/device-velocity.js';
import { input, policy } from '../fixtures.js';

describe('DEVICE_VELOCITY', () => {
  const max = policy.velocity.device.maxCharges;
  test(`found when the device already has ${max} charges in the window`, () => {
    expect(deviceVelocity.applies(input(undefined, { history: { deviceCharges: max } }), policy)).toBe(true);
    expect(deviceVelocity.applies(input(undefined, { history: { deviceCharges: max + 10 } }), policy)).toBe(
      true,
    );
  });
  test('not found below the limit, or for an unknown device', () => {
    expect(deviceVelocity.applies(input(undefined, { history: { deviceCharges: max - 1 } }), policy)).toBe(
      false,
    );
    expect(deviceVelocity.applies(input(undefined, { history: { deviceCharges: null } }), policy)).toBe(
      false,
    );
  });
  test('follows the policy', () => {
    const strict = {
      ...policy,
      velocity: { ...policy.velocity, device: { maxCharges: 1, windowMinutes: 10 } },
    };
    expect(deviceVelocity.applies(input(undefined, { history: { deviceCharges: 1 } }), strict)).toBe(true);
  });
});
