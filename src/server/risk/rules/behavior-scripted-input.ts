import { riskRule } from '../types.js';

export const behaviorScriptedInput = riskRule({
  code: 'BEHAVIOR_SCRIPTED_INPUT',
  description:
    'A checkout field got its value with no keystroke, paste, drop or autofill behind it: set by a script ' +
    "(a driver's fill(), insertText, a dispatched input event). A form-filling extension looks the same.",
  applies: ({ session }) => (session.behavior?.report.keyless_fields ?? 0) > 0,
});
