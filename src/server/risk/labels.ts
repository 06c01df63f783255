import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { deriveKey, keyedHash } from '../core/keyed-hash.js';
import type { Database } from '../db/database.js';
import { normalizeIp } from './rules/ip-mismatch.js';
import type { FraudLabelsTable } from './table.js';

export type FraudLabel = FraudLabelsTable['label'];
export type LabelSource = FraudLabelsTable['source'];

/** What a charge is known by: its device, card, buyer and network address. */
export interface LabelSubject {
  visitorId: string | null;
  /** Null for a charge paid without a card (PIX, boleto). */
  cardHash: string | null;
  document: string;
  ip: string | null;
}

type LabelKeys = Pick<FraudLabelsTable, 'visitor_key' | 'card_key' | 'buyer_key' | 'ip_key'>;

/**
 * Keyed hashes of a charge's subject (HMAC-SHA256 under a key derived from the card-hash key for this purpose
 * alone, one domain per field): labels hold nothing reversible, and their keys match no other store's.
 */
export function labelKeyer(cardHashKey: string) {
  const key = deriveKey(cardHashKey, 'fraud-labels');
  return (subject: LabelSubject): LabelKeys => ({
    visitor_key: subject.visitorId ? keyedHash(key, 'visitor', subject.visitorId) : null,
    card_key: subject.cardHash ? keyedHash(key, 'card', subject.cardHash) : null,
    buyer_key: keyedHash(key, 'buyer', subject.document),
    ip_key: subject.ip ? keyedHash(key, 'ip', normalizeIp(subject.ip)) : null,
  });
}

export type LabelKeyer = ReturnType<typeof labelKeyer>;

/** The charge's subject: its columns and, when it had a fraud session, the IP the session was created from. */
async function chargeSubject(trx: Kysely<Database>, chargeId: string) {
  return trx
    .selectFrom('charges')
    .leftJoin('fraud_sessions', 'fraud_sessions.id', 'charges.fraud_session_id')
    .select([
      'charges.merchant_id',
      'charges.visitor_id',
      'charges.card_hash',
      'charges.customer_document',
      'fraud_sessions.observed_ip_address',
    ])
    .where('charges.id', '=', chargeId)
    .executeTakeFirstOrThrow();
}

/**
 * Labels a charge, in the transaction of the judgement (a review decision, a dispute). A charge may carry several
 * labels over time (a review, then a dispute); the rules read fraud labels.
 */
export async function labelCharge(
  trx: Kysely<Database>,
  input: { chargeId: string; label: FraudLabel; source: LabelSource; keyer: LabelKeyer; now: Date },
): Promise<void> {
  const charge = await chargeSubject(trx, input.chargeId);
  const keys = input.keyer({
    visitorId: charge.visitor_id,
    cardHash: charge.card_hash,
    document: charge.customer_document,
    ip: charge.observed_ip_address,
  });
  await trx
    .insertInto('fraud_labels')
    .values({
      id: newId(),
      merchant_id: charge.merchant_id,
      charge_id: input.chargeId,
      label: input.label,
      source: input.source,
      ...keys,
      created_at: input.now.toISOString(),
    })
    .execute();
}
