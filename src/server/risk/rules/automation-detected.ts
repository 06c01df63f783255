import type { RiskRule } from '../types.js';

export const automationDetected: RiskRule = {
  code: 'AUTOMATION_DETECTED',
  description:
    "The device profiler's bot detection found browser automation (headless browser, WebDriver, …).",
  applies: ({ session }) => session.signals?.automation === true,
};
