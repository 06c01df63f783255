import { riskRule } from '../types.js';

export const automationDetected = riskRule({
  code: 'AUTOMATION_DETECTED',
  description:
    "The device profiler's bot detection found browser automation (headless browser, WebDriver, …).",
  applies: ({ session }) => session.signals?.automation === true,
});
