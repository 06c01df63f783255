import { type DialectName, startAppWithMerchant, TestClock } from '../../helpers/app.js';
import { client, createBusyMerchant } from '../../helpers/submerchants.js';

/**
 * Where the onboarding suites start: a clock they move, an app on a new database of the dialect, a merchant
 * whose rate limits stay out of the way, and an API client with its secret key.
 */
export async function startOnboarding(dialect: DialectName) {
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  const { app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }, createBusyMerchant);
  return { clock, app, merchant, api: client(app, merchant.secret) };
}
