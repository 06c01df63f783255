import Fastify from 'fastify';
import type { VigiaApp } from '../../../src/server/app.js';
import { dataResponse } from '../../../src/server/http/envelope.js';
import { presentSubmerchantDetail } from '../../../src/server/submerchants/present.js';
import { SubmerchantDetailSchema } from '../../../src/server/submerchants/schemas.js';
import { getSubmerchantDetail } from '../../../src/server/submerchants/service.js';
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

/**
 * What the presenters and the response schema's serialiser (Fastify's own) answer for a submerchant now, from
 * its rows as they are: the reference GET /v1/submerchants/:id's JSON text is held to, byte for byte.
 */
export async function presentedAnswer(
  app: VigiaApp,
  id: string,
  merchantId: string,
  now: Date,
): Promise<string> {
  const detail = await getSubmerchantDetail(app.store.db, id, { merchantId }, now);
  const reference = Fastify();
  reference.get('/', { schema: { response: { 200: dataResponse(SubmerchantDetailSchema) } } }, async () => ({
    message: 'Submerchant retrieved.',
    data: presentSubmerchantDetail(detail!, now),
  }));
  const answer = await reference.inject({ method: 'GET', url: '/' });
  await reference.close();
  return answer.body;
}
