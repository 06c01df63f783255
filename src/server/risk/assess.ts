import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { FraudSession } from '../fraud/service.js';
import type { Merchant } from '../merchants/service.js';
import type { DeviceGraphHasher } from './device-graph.js';
import { analyzeRisk, NOT_ANALYZED } from './engine.js';
import { recentHistory } from './history.js';
import type { LabelKeyer } from './labels.js';
import { DEFAULT_POLICY, policyFor } from './policy.js';
import type { FraudAnalysis } from './types.js';

export interface ChargeAssessment {
  analysis: FraudAnalysis;
  /** The device the session's profiler saw, kept on the charge for the device velocity of later charges. */
  visitorId: string | null;
}

/**
 * A charge's risk step, inside its transaction, once its fraud session is consumed and its card locked
 * (charges/consume.ts): score the session against the merchant's policy, the recent charges of this card and
 * device, and the device's place in the platform-wide graph, to which the charge is added. A charge without a
 * session is not analysed.
 */
export async function assessCharge(
  trx: Kysely<Database>,
  input: {
    merchant: Pick<Merchant, 'id' | 'allowedHosts'>;
    session: FraudSession | null;
    /** Null for a charge without a card (PIX, boleto): the card rules then do not apply. */
    cardHash: string | null;
    customer: { document: string; email: string };
    now: Date;
    deviceGraph: DeviceGraphHasher;
    labelKeyer: LabelKeyer;
  },
): Promise<ChargeAssessment> {
  const { merchant, session, cardHash, customer, now } = input;
  if (!session) return { analysis: NOT_ANALYZED, visitorId: null };
  const visitorId = session.signals?.visitorId ?? null;
  const graph = input.deviceGraph.entry({ session, merchantId: merchant.id, cardHash, customer });
  const { thresholds, history } = await recentHistory(trx, {
    merchantId: merchant.id,
    cardHash,
    customer,
    session,
    now,
    graph,
    windows: DEFAULT_POLICY,
    labelKeys: input.labelKeyer({ visitorId, cardHash, document: customer.document, ip: null }),
  });
  const policy = policyFor(thresholds);
  const analysis = analyzeRisk(
    { session, merchant: { allowedHosts: merchant.allowedHosts }, history },
    policy,
  );
  return { analysis, visitorId };
}
