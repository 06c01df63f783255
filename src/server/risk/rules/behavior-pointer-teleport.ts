import { riskRule } from '../types.js';

export const behaviorPointerTeleport = riskRule({
  code: 'BEHAVIOR_POINTER_TELEPORT',
  description:
    'Every mouse click on the checkout landed with no pointer travel before it (fewer than two moves since the ' +
    "previous press): a driver's click. Touch, pen and keyboard-only checkouts are not judged.",
  applies: ({ session }) => {
    const report = session.behavior?.report;
    return !!report && report.touches === 0 && report.mouse_clicks > 0 && report.travelled_clicks === 0;
  },
});
