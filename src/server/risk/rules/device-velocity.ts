import { riskRule } from '../types.js';

export const deviceVelocity = riskRule({
  code: 'DEVICE_VELOCITY',
  description:
    "The same device (the profiler's visitor id) already made the policy's maximum of charges with this " +
    'merchant within the window (5 in 60 minutes by default).',
  applies: ({ history }, policy) =>
    history.deviceCharges !== null && history.deviceCharges >= policy.velocity.device.maxCharges,
});
